export { isJsonObject, type JsonObject, type JsonValue } from "./json";
export {
  MODEL_FAILURE_KINDS,
  MODEL_PROGRESS_TYPES,
  MODEL_SPECIFICATION_VERSION,
  type ModelAssistantMessage,
  ModelFailure,
  type ModelFailureKind,
  type ModelInfo,
  type ModelMessage,
  type ModelOutputProgress,
  type ModelPrices,
  type ModelProvider,
  type ModelReply,
  type ModelRetryProgress,
  type ModelRoundProgress,
  type ModelRoundRequest,
  type ModelSettings,
  type ModelSystemMessage,
  type ModelTool,
  type ModelToolCall,
  type ModelToolMessage,
  type ModelUsage,
  type ModelUserMessage,
} from "./model";
export { definePack, type PackDefinition } from "./pack";
export { definePlugin, type PluginApi, type PluginDefinition } from "./plugin";
export {
  INPUT_BROKER,
  type InputBroker,
  type InputRequest,
  type KnownServices,
  SEARCH_PROVIDER,
  type SearchProvider,
  type SearchRequest,
  type SearchResult,
  type Services,
} from "./services";
export {
  type RunStore,
  STORE_ERROR_REASONS,
  StoreError,
  type StoreErrorReason,
  type StoreFailure,
  type StoreText,
} from "./store";
export {
  defineTool,
  type ToolCallOrigin,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
  type ToolOutputKind,
  type ToolTrust,
} from "./tool";
export { ToolFailure } from "./tool-failure";
