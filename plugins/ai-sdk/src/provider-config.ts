import type { ModelPrices } from "@runvil/sdk";
import type { AiSdkCatalogModel, AiSdkProviderOptions } from "./ai-sdk-provider";
import { MODULE_DEFAULTS, type ModelFacts } from "./known-models";
import { checkLanguageModel } from "./language-model";
import type { RetryOptions } from "./retry-policy";

/** One `providers` entry of runvil.config.json, its module loaded (the Host's ProviderModuleEntry). */
export interface ProviderEntry {
  /** The key path, such as `providers.local`. */
  readonly key: string;
  /** The provider's name: its catalog ids are `{name}:{model}`. */
  readonly name: string;
  /** The module as written, such as `@ai-sdk/openai-compatible`. */
  readonly module: string;
  /** The module's exports. */
  readonly namespace: Readonly<Record<string, unknown>>;
  /** The entry's other keys, as written. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** The keys a provider entry may have besides `module`. */
export const PROVIDER_KEYS = [
  "factory",
  "options",
  "apiKeyEnv",
  "api",
  "models",
  "stream",
  "retry",
  "requestTimeoutMs",
  "idleTimeoutMs",
] as const;

const MODEL_KEYS = ["contextWindow", "maxOutputTokens", "tools", "prices"];
const PRICE_KEYS = ["inputPerMillion", "outputPerMillion", "cachedInputPerMillion"];
const RETRY_KEYS = ["maxRetries", "maxRetryTimeMs", "initialDelayMs", "maxDelayMs"];
const NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const API_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,62}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Env = Readonly<Record<string, string | undefined>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function path(parent: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)
    ? `${parent}.${key}`
    : `${parent}.${JSON.stringify(key)}`;
}

function checkKeys(record: Record<string, unknown>, at: string, known: readonly string[]): void {
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) {
      throw new Error(`${path(at, key)} is not a known key (known: ${known.join(", ")})`);
    }
  }
}

function whole(value: unknown, at: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new Error(
      `${at} must be a whole number ${range}, got ${typeof value === "number" ? value : typeName(value)}`,
    );
  }
  return value;
}

function price(value: unknown, at: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new Error(
      `${at} must be a number of at least 0 (USD per million tokens), got ${typeof value === "number" ? value : typeName(value)}`,
    );
  }
  return value;
}

function pricesOf(value: unknown, at: string): ModelPrices {
  if (!isRecord(value))
    throw new Error(
      `${at} must be an object of USD prices per million tokens, got ${typeName(value)}`,
    );
  checkKeys(value, at, PRICE_KEYS);
  for (const key of ["inputPerMillion", "outputPerMillion"]) {
    if (value[key] === undefined) throw new Error(`${at}.${key} is required`);
  }
  return {
    inputPerMillion: price(value.inputPerMillion, `${at}.inputPerMillion`),
    outputPerMillion: price(value.outputPerMillion, `${at}.outputPerMillion`),
    ...(value.cachedInputPerMillion === undefined
      ? {}
      : {
          cachedInputPerMillion: price(value.cachedInputPerMillion, `${at}.cachedInputPerMillion`),
        }),
  };
}

function factsOf(value: unknown, at: string): ModelFacts {
  if (!isRecord(value)) {
    throw new Error(
      `${at} must be a model's facts ({ contextWindow, maxOutputTokens, tools?, prices? }), got ${typeName(value)}`,
    );
  }
  checkKeys(value, at, MODEL_KEYS);
  if (value.contextWindow === undefined) throw new Error(`${at}.contextWindow is required`);
  if (value.maxOutputTokens === undefined) throw new Error(`${at}.maxOutputTokens is required`);
  const contextWindow = whole(value.contextWindow, `${at}.contextWindow`, 1);
  const maxOutputTokens = whole(value.maxOutputTokens, `${at}.maxOutputTokens`, 1, contextWindow);
  if (value.tools !== undefined && typeof value.tools !== "boolean") {
    throw new Error(`${at}.tools must be true or false, got ${typeName(value.tools)}`);
  }
  return {
    contextWindow,
    maxOutputTokens,
    tools: value.tools ?? true,
    ...(value.prices === undefined ? {} : { prices: pricesOf(value.prices, `${at}.prices`) }),
  };
}

function modelsOf(entry: ProviderEntry): AiSdkCatalogModel[] {
  const given = entry.settings.models;
  const at = `${entry.key}.models`;
  const listed = given ?? MODULE_DEFAULTS[entry.module]?.models;
  if (listed === undefined) {
    throw new Error(
      `${at} is required: the models ${entry.name} serves, such as "models": { "llama3.2": { "contextWindow": 131072, "maxOutputTokens": 8192 } }`,
    );
  }
  if (!isRecord(listed))
    throw new Error(`${at} must be an object of models by id, got ${typeName(listed)}`);
  const ids = Object.keys(listed);
  if (ids.length === 0) throw new Error(`${at} must name at least one model`);
  return ids.map((apiId) => {
    const modelAt = path(at, apiId);
    if (!API_ID.test(apiId)) {
      throw new Error(
        `${modelAt}: a model id is 1 to 63 of A-Z a-z 0-9 . _ : / @ + - (starting with a letter or digit)`,
      );
    }
    const facts =
      given === undefined ? (listed[apiId] as ModelFacts) : factsOf(listed[apiId], modelAt);
    return { id: `${entry.name}:${apiId}`, apiId, ...facts };
  });
}

function factoryOf(entry: ProviderEntry): (settings: Record<string, unknown>) => unknown {
  const named = entry.settings.factory;
  const quoted = JSON.stringify(entry.module);
  if (named !== undefined) {
    if (typeof named !== "string" || named === "") {
      throw new Error(
        `${entry.key}.factory must be the name of an export of ${quoted}, got ${typeName(named)}`,
      );
    }
    const value = entry.namespace[named];
    if (typeof value !== "function") {
      throw new Error(
        `${entry.key}.factory: ${quoted} exports no function ${JSON.stringify(named)}`,
      );
    }
    return value as (settings: Record<string, unknown>) => unknown;
  }
  const factories = Object.keys(entry.namespace).filter(
    (key) => /^create[A-Z]/.test(key) && typeof entry.namespace[key] === "function",
  );
  if (factories.length !== 1) {
    throw new Error(
      factories.length === 0
        ? `${entry.key}.module: ${quoted} is not an AI SDK provider: it exports no create… function (such as createOpenAI); name one with "factory"`
        : `${entry.key}.module: ${quoted} exports several provider factories (${factories.join(", ")}); choose one with "factory"`,
    );
  }
  return entry.namespace[factories[0] as string] as (settings: Record<string, unknown>) => unknown;
}

function optionalWhole(value: unknown, at: string): number | undefined {
  return value === undefined ? undefined : whole(value, at, 1);
}

function retryOf(value: unknown, at: string): RetryOptions | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new Error(`${at} must be an object, got ${typeName(value)}`);
  checkKeys(value, at, RETRY_KEYS);
  const retry: Record<string, number> = {};
  for (const key of RETRY_KEYS) {
    if (value[key] !== undefined) retry[key] = whole(value[key], `${at}.${key}`, 0);
  }
  return retry;
}

/**
 * Checks a provider entry of runvil.config.json and builds the provider's options: the
 * module's factory called with `options` (and the API key from the environment variable
 * `apiKeyEnv`, which defaults to OPENAI_API_KEY / ANTHROPIC_API_KEY for those modules), the
 * models by `api` (a factory method such as `chat` or `responses`; default `languageModel`),
 * and the catalog models `{name}:{id}` with their facts (for @ai-sdk/openai and
 * @ai-sdk/anthropic, a built-in list when `models` is absent). Throws an Error whose message
 * starts with the key path; its first model is made once to check that the module gives AI SDK
 * V3 language models.
 */
export function providerOptionsOf(entry: ProviderEntry, env: Env): AiSdkProviderOptions {
  const { key, settings } = entry;
  if (!NAME.test(entry.name)) {
    throw new Error(
      `${key}: a provider name is 1 to 63 of a-z 0-9 . _ - (starting with a letter or digit), such as "openai" or "local"`,
    );
  }
  checkKeys(settings as Record<string, unknown>, key, PROVIDER_KEYS);
  const factory = factoryOf(entry);
  const options = settings.options ?? {};
  if (!isRecord(options))
    throw new Error(`${key}.options must be an object, got ${typeName(options)}`);
  const envName = settings.apiKeyEnv ?? MODULE_DEFAULTS[entry.module]?.apiKeyEnv;
  if (envName !== undefined && (typeof envName !== "string" || !ENV_NAME.test(envName))) {
    throw new Error(
      `${key}.apiKeyEnv must be the name of an environment variable, such as "OPENAI_API_KEY"`,
    );
  }
  const apiKey = envName === undefined ? undefined : env[envName];
  const keyMissing = envName !== undefined && (apiKey === undefined || apiKey === "");
  const secrets = [apiKey, options.apiKey].filter(
    (s): s is string => typeof s === "string" && s !== "",
  );
  let made: unknown;
  try {
    made = factory({
      name: entry.name,
      ...options,
      ...(keyMissing || apiKey === undefined ? {} : { apiKey }),
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${key}.options: the provider factory of ${JSON.stringify(entry.module)} refused them: ${detail}`,
    );
  }
  const api = settings.api;
  if (api !== undefined && (typeof api !== "string" || api === "")) {
    throw new Error(
      `${key}.api must be the name of a model function of the provider, such as "chat" or "responses"`,
    );
  }
  const provider = made as Record<string, unknown> & ((id: string) => unknown);
  const method =
    api ?? (typeof provider?.languageModel === "function" ? "languageModel" : undefined);
  let languageModel: (apiId: string) => unknown;
  if (method !== undefined) {
    const fn = (provider as Record<string, unknown> | null)?.[method];
    if (typeof fn !== "function") {
      throw new Error(
        `${key}.api: the provider of ${JSON.stringify(entry.module)} has no ${method} function`,
      );
    }
    languageModel = (apiId) => (fn as (id: string) => unknown).call(provider, apiId);
  } else if (typeof made === "function") {
    languageModel = (apiId) => provider(apiId);
  } else {
    throw new Error(
      `${key}.module: ${JSON.stringify(entry.module)}'s factory did not return an AI SDK provider`,
    );
  }
  const models = modelsOf(entry);
  const first = models[0] as AiSdkCatalogModel;
  let sample: unknown;
  try {
    sample = languageModel(first.apiId);
  } catch (error) {
    sample = error;
  }
  if (!(sample instanceof Error)) {
    const checked = checkLanguageModel(sample);
    if (!checked.ok)
      throw new Error(`${key}.module: ${JSON.stringify(entry.module)}: ${checked.problem}`);
  }
  if (settings.stream !== undefined && typeof settings.stream !== "boolean") {
    throw new Error(`${key}.stream must be true or false, got ${typeName(settings.stream)}`);
  }
  const retry = retryOf(settings.retry, `${key}.retry`);
  const requestTimeoutMs = optionalWhole(settings.requestTimeoutMs, `${key}.requestTimeoutMs`);
  const idleTimeoutMs = optionalWhole(settings.idleTimeoutMs, `${key}.idleTimeoutMs`);
  const keySetting =
    envName === undefined ? `the apiKey option of ${key}` : `the environment variable ${envName}`;
  return {
    name: entry.name,
    models,
    languageModel: keyMissing
      ? () => {
          throw Object.assign(new Error(`${envName} is not set`), { name: "AI_LoadAPIKeyError" });
        }
      : languageModel,
    keySetting,
    secrets,
    ...(typeof settings.stream === "boolean" ? { stream: settings.stream } : {}),
    ...(retry === undefined ? {} : { retry }),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  };
}
