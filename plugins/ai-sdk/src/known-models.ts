import type { ModelPrices } from "@runvil/sdk";

/** The facts of one model a provider serves, as a configuration gives them. */
export interface ModelFacts {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly tools: boolean;
  readonly prices?: ModelPrices;
}

/**
 * The models the default Host offers for OpenAI (`OPENAI_API_KEY`), with list prices in USD per
 * million tokens (input, output, cached input). A configuration's `models` replaces the list;
 * prices change, so a ledger that must be exact sets them in runvil.config.json.
 */
export const OPENAI_MODELS: Readonly<Record<string, ModelFacts>> = {
  "gpt-5-mini": {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    tools: true,
    prices: { inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025 },
  },
  "gpt-5": {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    tools: true,
    prices: { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  },
  "gpt-4.1": {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    prices: { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  },
  "gpt-4.1-mini": {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    tools: true,
    prices: { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  },
};

/** The models the default Host offers for Anthropic (`ANTHROPIC_API_KEY`); prices as above. */
export const ANTHROPIC_MODELS: Readonly<Record<string, ModelFacts>> = {
  "claude-sonnet-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    tools: true,
    prices: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 },
  },
  "claude-haiku-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    tools: true,
    prices: { inputPerMillion: 1, outputPerMillion: 5, cachedInputPerMillion: 0.1 },
  },
  "claude-opus-4-1": {
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    tools: true,
    prices: { inputPerMillion: 15, outputPerMillion: 75, cachedInputPerMillion: 1.5 },
  },
};

/** What each module the plugin carries defaults to: its key variable and model list. */
export const MODULE_DEFAULTS: Readonly<
  Record<
    string,
    { readonly apiKeyEnv?: string; readonly models?: Readonly<Record<string, ModelFacts>> }
  >
> = {
  "@ai-sdk/openai": { apiKeyEnv: "OPENAI_API_KEY", models: OPENAI_MODELS },
  "@ai-sdk/anthropic": { apiKeyEnv: "ANTHROPIC_API_KEY", models: ANTHROPIC_MODELS },
  "@ai-sdk/openai-compatible": {},
};

/** The default model of the default Host: the first provider with a key set wins. */
export const DEFAULT_MODELS: readonly { readonly env: string; readonly model: string }[] = [
  { env: "OPENAI_API_KEY", model: "openai:gpt-5-mini" },
  { env: "ANTHROPIC_API_KEY", model: "anthropic:claude-sonnet-4-5" },
];
