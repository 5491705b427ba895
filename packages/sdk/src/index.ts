export { isJsonObject, type JsonObject, type JsonValue } from "./json";
export {
  ModelFailure,
  type ModelFailureKind,
  type ModelMessage,
  type ModelProvider,
  type ModelReply,
  type ModelRoundRequest,
  type ModelTool,
  type ModelToolCall,
  type ModelUsage,
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
