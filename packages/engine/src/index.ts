export { type Engine, loadEngine } from "./run/engine";
export {
  DEFAULT_EXECUTION,
  DEFAULT_START_MS,
  type RunLimits,
  type RunOptions,
} from "./run/run-options";
export { MAX_RUN_SEED, runNonce } from "./untrusted/nonce";
