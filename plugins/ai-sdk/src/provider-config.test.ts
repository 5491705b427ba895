import * as openaiCompatible from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { createAiSdkProvider } from "./ai-sdk-provider";
import { aiSdkPlugin, aiSdkProviderLoader, defaultModelOf, defaultProviders } from "./plugin";
import { type ProviderEntry, providerOptionsOf } from "./provider-config";
import { failureOf, roundRequest } from "./test-support/round";

function entry(
  settings: Record<string, unknown>,
  overrides: Partial<ProviderEntry> = {},
): ProviderEntry {
  return {
    key: "providers.local",
    name: "local",
    module: "@ai-sdk/openai-compatible",
    namespace: openaiCompatible,
    settings: {
      options: { baseURL: "http://127.0.0.1:9/v1" },
      models: { qwen3: { contextWindow: 32768, maxOutputTokens: 4096 } },
      ...settings,
    },
    ...overrides,
  };
}

function problem(
  settings: Record<string, unknown>,
  overrides: Partial<ProviderEntry> = {},
): string {
  try {
    providerOptionsOf(entry(settings, overrides), {});
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the entry to be refused");
}

describe("providerOptionsOf", () => {
  it("builds the catalog models {name}:{id} with their facts and prices", () => {
    const options = providerOptionsOf(
      entry({
        models: {
          qwen3: {
            contextWindow: 32768,
            maxOutputTokens: 4096,
            tools: false,
            prices: { inputPerMillion: 0.1, outputPerMillion: 0.2, cachedInputPerMillion: 0.01 },
          },
        },
      }),
      {},
    );
    expect(createAiSdkProvider(options).models).toEqual([
      {
        id: "local:qwen3",
        contextWindow: 32768,
        maxOutputTokens: 4096,
        tools: false,
        prices: { inputPerMillion: 0.1, outputPerMillion: 0.2, cachedInputPerMillion: 0.01 },
      },
    ]);
  });

  it("refuses a module that is not an AI SDK provider, naming the key and what to do", () => {
    expect(problem({}, { module: "left-pad", namespace: { leftPad: () => "" } })).toBe(
      'providers.local.module: "left-pad" is not an AI SDK provider: it exports no create… function (such as createOpenAI); name one with "factory"',
    );
    expect(
      problem(
        {},
        {
          module: "old",
          namespace: { createOld: () => (id: string) => ({ specificationVersion: "v2", id }) },
        },
      ),
    ).toBe(
      'providers.local.module: "old": it implements the AI SDK provider specification v2 (an @ai-sdk/* 2.x package); this plugin adapts v3: install the package\'s 3.x line',
    );
    expect(problem({ factory: "createNothing" })).toBe(
      'providers.local.factory: "@ai-sdk/openai-compatible" exports no function "createNothing"',
    );
    expect(problem({ api: "embedding2" })).toBe(
      'providers.local.api: the provider of "@ai-sdk/openai-compatible" has no embedding2 function',
    );
  });

  it("names every bad setting by its key path", () => {
    expect(problem({ model: {} })).toMatch(
      /^providers\.local\.model is not a known key \(known: factory, options/,
    );
    expect(problem({ models: undefined })).toBe(
      'providers.local.models is required: the models local serves, such as "models": { "llama3.2": { "contextWindow": 131072, "maxOutputTokens": 8192 } }',
    );
    expect(problem({ models: {} })).toBe("providers.local.models must name at least one model");
    expect(problem({ models: { q: { contextWindow: 0, maxOutputTokens: 1 } } })).toBe(
      "providers.local.models.q.contextWindow must be a whole number of at least 1, got 0",
    );
    expect(problem({ models: { q: { contextWindow: 10, maxOutputTokens: 11 } } })).toBe(
      "providers.local.models.q.maxOutputTokens must be a whole number from 1 to 10, got 11",
    );
    expect(
      problem({
        models: {
          q: {
            contextWindow: 10,
            maxOutputTokens: 1,
            prices: { inputPerMillion: -1, outputPerMillion: 1 },
          },
        },
      }),
    ).toBe(
      "providers.local.models.q.prices.inputPerMillion must be a number of at least 0 (USD per million tokens), got -1",
    );
    expect(problem({ models: { "bad id": { contextWindow: 10, maxOutputTokens: 1 } } })).toMatch(
      /^providers\.local\.models\."bad id": a model id is/,
    );
    expect(problem({ apiKeyEnv: "not a name" })).toBe(
      'providers.local.apiKeyEnv must be the name of an environment variable, such as "OPENAI_API_KEY"',
    );
    expect(problem({ retry: { maxRetries: -1 } })).toBe(
      "providers.local.retry.maxRetries must be a whole number of at least 0, got -1",
    );
    expect(problem({}, { name: "Local Server" })).toMatch(/^providers\.local: a provider name is/);
  });

  it("reads the key from the named variable and says which variable to set when it is missing", async () => {
    const options = providerOptionsOf(entry({ apiKeyEnv: "LOCAL_KEY" }), {});
    const failure = await failureOf(
      createAiSdkProvider(options).round(roundRequest("local:qwen3")),
    );
    expect(failure.message).toBe("local: no API key; set the environment variable LOCAL_KEY");
    const withKey = providerOptionsOf(entry({ apiKeyEnv: "LOCAL_KEY" }), {
      LOCAL_KEY: "sk-local-1234",
    });
    expect(withKey.secrets).toEqual(["sk-local-1234"]);
  });
});

describe("the default providers", () => {
  it("offer OpenAI and Anthropic only when their keys are set, with a default model", async () => {
    expect(await defaultProviders({})).toBeUndefined();
    expect(defaultModelOf({})).toBeUndefined();
    const both = await defaultProviders({
      OPENAI_API_KEY: "sk-o-1234",
      ANTHROPIC_API_KEY: "sk-a-1234",
    });
    expect(both?.plugin).toBe(aiSdkPlugin);
    expect(both?.options.providers.map((p) => [p.name, p.models[0]?.id])).toEqual([
      ["openai", "openai:gpt-5-mini"],
      ["anthropic", "anthropic:claude-sonnet-4-5"],
    ]);
    expect(defaultModelOf({ OPENAI_API_KEY: "k" })).toBe("openai:gpt-5-mini");
    expect(defaultModelOf({ ANTHROPIC_API_KEY: "k" })).toBe("anthropic:claude-sonnet-4-5");
  });

  it("are what the loader gives for a configuration without providers", async () => {
    const loader = aiSdkProviderLoader({ ANTHROPIC_API_KEY: "sk-a-1234" });
    const plugin = await loader.plugin(undefined);
    expect(plugin?.options.providers.map((p) => p.name)).toEqual(["anthropic"]);
    expect(Object.keys(loader.builtins)).toEqual([
      "@ai-sdk/openai",
      "@ai-sdk/anthropic",
      "@ai-sdk/openai-compatible",
    ]);
    const configured = await loader.plugin([entry({})]);
    expect(configured?.options.providers.map((p) => p.name)).toEqual(["local"]);
  });
});
