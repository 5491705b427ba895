export { ARGV_FROZEN_MESSAGE } from "./argv/derive-argv";
export { requireCycleMessage, requireNotHeadingMessage } from "./globals/install-engine-lua";
export { UNTRUSTED_ARITY_MESSAGE } from "./globals/untrusted-global";
export { PROSE_READ_ONLY_MESSAGE, substitutionMessage } from "./prose/template";
export { gateFailedMessage } from "./run/block-failure";
export { type Engine, loadEngine } from "./run/engine";
export {
  DEFAULT_EXECUTION,
  DEFAULT_START_MS,
  type RunLimits,
  type RunOptions,
} from "./run/run-options";
export {
  JUMP_IN_HANDLER_MESSAGE,
  toolCallFailureMessage,
  toolListFixedMessage,
  unboundToolMessage,
} from "./tools/tool-messages";
export { CONTROL_MARKUP, escapeUntrusted, wrapUntrusted } from "./untrusted/envelope";
export { MAX_RUN_SEED, runNonce } from "./untrusted/nonce";
export { CALL_DEPTH_CAP, CALL_RECURSION_MESSAGE } from "./walk/chain";
export {
  type HeadingReference,
  parseHeadingReference,
  SECTION_TARGET_NOT_STRING,
  sectionNotFoundMessage,
} from "./walk/heading-reference";
