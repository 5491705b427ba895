import { createHost } from "@runvil/host";
import { aiSdkPlugin } from "@runvil/plugin-ai-sdk";
import { describe, expect, it } from "vitest";
import { withModelHints } from "./model-hints";

const HEAD = "the environment cannot satisfy this prompt:";

async function hostWith(ids: readonly string[]) {
  return createHost({
    plugins: [
      {
        plugin: aiSdkPlugin,
        options: {
          providers: [
            {
              name: "local",
              models: ids.map((apiId) => ({
                id: `local:${apiId}`,
                apiId,
                contextWindow: 1000,
                maxOutputTokens: 100,
                tools: true,
              })),
              languageModel: () => undefined,
            },
          ],
        },
      },
    ],
  });
}

function notice(...lines: string[]): string {
  return [HEAD, ...lines].join("\n");
}

describe("withModelHints", () => {
  it("adds the provider entry for an id of a provider the Host lacks", async () => {
    const host = await hostWith([]);
    expect(
      withModelHints(
        notice(
          "- model role writer cannot be bound: `openai:gpt-5-mini` is not in this host's model catalog; this host has no model provider",
        ),
        host,
      ).split("\n")[2],
    ).toBe(
      '  fix: set OPENAI_API_KEY, or add to runvil.config.json: "providers": { "openai": { "module": "@ai-sdk/openai", "models": { "gpt-5-mini": { "contextWindow": 131072, "maxOutputTokens": 8192 } } } }',
    );
    expect(
      withModelHints(
        notice(
          "- model role w cannot be bound: `ollama:llama3.2` is not in this host's model catalog",
        ),
        host,
      ).split("\n")[2],
    ).toBe(
      '  fix: add to runvil.config.json: "providers": { "ollama": { "module": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://127.0.0.1:11434/v1" }, "models": { "llama3.2": { "contextWindow": 131072, "maxOutputTokens": 8192 } } } }',
    );
  });

  it("names the provider a bare id needs, the models entry a configured provider lacks, and the default model line", async () => {
    const host = await hostWith(["qwen3"]);
    const hinted = withModelHints(
      notice(
        "- web is unavailable: runvil/web needs a search provider",
        "- model role a cannot be bound: `qwen3` is not in this host's model catalog",
        "- model role b cannot be bound: none of `local:qwen9`, `x:y` is in this host's model catalog",
        "- model role c cannot be bound: it names no model, and this host has no default model; set model: under models.c",
        "- model role d cannot be bound: max_output_tokens 900 is over the 100 tokens local:qwen3 can write",
      ),
      host,
    ).split("\n");
    expect(hinted.slice(1)).toEqual([
      "- web is unavailable: runvil/web needs a search provider",
      "- model role a cannot be bound: `qwen3` is not in this host's model catalog",
      "  fix: write local:qwen3: catalog ids name their provider",
      "- model role b cannot be bound: none of `local:qwen9`, `x:y` is in this host's model catalog",
      '  fix: add "qwen9": { "contextWindow": 131072, "maxOutputTokens": 8192 } under providers.local.models in runvil.config.json (with the model\'s own limits)',
      "- model role c cannot be bound: it names no model, and this host has no default model; set model: under models.c",
      '  fix: add "defaultModel": "local:qwen3" to runvil.config.json, or set model: under models.c',
      "- model role d cannot be bound: max_output_tokens 900 is over the 100 tokens local:qwen3 can write",
    ]);
  });
});
