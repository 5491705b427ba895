export { ARGV_FROZEN_MESSAGE } from "./argv/derive-argv";
export { applyStoreOperation } from "./effects/apply-store-operation";
export type {
  EffectOrigin,
  EffectPort,
  StoreOperation,
  StoreOutput,
  StoreOutputs,
  StoreRequest,
  ToolCallOutput,
  ToolCallRequest,
} from "./effects/effect-port";
export {
  type EntryEnding,
  type EntryVia,
  type EventEnvelope,
  type EventFields,
  formatEventLine,
  type RunEvent,
  type RunEventOf,
  type RunEventType,
  type StoreOpEventFields,
  type SubstitutionKind,
  type ToolCallEventFields,
  type ToolResultEventFields,
} from "./events/run-event";
export { requireCycleMessage, requireNotHeadingMessage } from "./globals/install-engine-lua";
export { UNTRUSTED_ARITY_MESSAGE } from "./globals/untrusted-global";
export { PROSE_READ_ONLY_MESSAGE, substitutionMessage } from "./prose/template";
export { gateFailedMessage } from "./run/block-failure";
export { type Engine, loadEngine } from "./run/engine";
export type { RunError, RunErrorKind, RunErrorValue } from "./run/run-error";
export {
  DEFAULT_EXECUTION,
  DEFAULT_START_MS,
  type RunLimits,
  type RunOptions,
} from "./run/run-options";
export type {
  CancelledRun,
  FailedRun,
  RunOutcome,
  RunResult,
  SucceededRun,
} from "./run/run-result";
export { isTaskBuiltinName, TASK_BUILTIN_NAMES } from "./tools/reserved-names";
export type {
  CatalogTool,
  DroppedTool,
  RunCatalog,
  RunPack,
  RunPrelude,
} from "./tools/run-catalog";
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
