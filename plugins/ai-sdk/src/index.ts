export {
  type AiSdkCatalogModel,
  type AiSdkProviderOptions,
  createAiSdkProvider,
} from "./ai-sdk-provider";
export {
  ANTHROPIC_MODELS,
  DEFAULT_MODELS,
  MODULE_DEFAULTS,
  type ModelFacts,
  OPENAI_MODELS,
} from "./known-models";
export {
  type AdaptedLanguageModel,
  checkLanguageModel,
  type LanguageModelCheck,
  SUPPORTED_SPECIFICATIONS,
} from "./language-model";
export { MAX_REPLY_BYTES, MAX_REPLY_TOOL_CALLS } from "./limits";
export {
  type AiSdkPluginEntry,
  type AiSdkPluginOptions,
  aiSdkPlugin,
  aiSdkPlugin as default,
  aiSdkProviderLoader,
  BUNDLED_PROVIDER_MODULES,
  defaultModelOf,
  defaultProviders,
} from "./plugin";
export { PROVIDER_KEYS, type ProviderEntry, providerOptionsOf } from "./provider-config";
export { DEFAULT_RETRY, type RetryOptions } from "./retry-policy";
