export type {
  EffectOrigin,
  EffectPort,
  ModelRoundEffectRequest,
  ModelRoundOutput,
  ModelRoundVia,
  ObservationRequest,
  StoreOperation,
  StoreOutput,
  StoreOutputs,
  StoreRequest,
  ToolCallOutput,
  ToolCallRequest,
} from "./effect-port";
export type { BudgetLimits, BudgetScope, RunBudget } from "./run-budget";
export type {
  CatalogTool,
  DroppedTool,
  RunCatalog,
  RunModelRole,
  RunPack,
  RunPrelude,
} from "./run-catalog";
export { RUN_ERROR_KINDS, type RunError, type RunErrorKind, type RunErrorValue } from "./run-error";
export {
  type AssistantToolCall,
  type BudgetExceededEventFields,
  type EntryEnding,
  type EntryVia,
  type EventEnvelope,
  type EventFields,
  formatEventLine,
  type ModelTurnEventFields,
  type RoundCostEventFields,
  type RunEvent,
  type RunEventOf,
  type RunEventType,
  type StoreOpEventFields,
  type SubstitutionKind,
  type ToolCallEventFields,
  type ToolResultEventFields,
} from "./run-event";
export {
  type CancelledRun,
  type FailedRun,
  NO_RUN_USAGE,
  type RunOutcome,
  type RunResult,
  type RunUsage,
  type SectionUsage,
  type SucceededRun,
  type TokenUsage,
} from "./run-result";
