import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as aiSdk from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(aiSdk).sort()).toEqual([
      "ANTHROPIC_MODELS",
      "BUNDLED_PROVIDER_MODULES",
      "DEFAULT_MODELS",
      "DEFAULT_RETRY",
      "MAX_REPLY_BYTES",
      "MAX_REPLY_TOOL_CALLS",
      "MODULE_DEFAULTS",
      "OPENAI_MODELS",
      "PROVIDER_KEYS",
      "SUPPORTED_SPECIFICATIONS",
      "aiSdkPlugin",
      "aiSdkProviderLoader",
      "checkLanguageModel",
      "createAiSdkProvider",
      "default",
      "defaultModelOf",
      "defaultProviders",
      "providerOptionsOf",
    ]);
  });

  it("maps the entry point to its build output and pins the AI SDK packages exactly", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
      "./package.json": "./package.json",
    });
    for (const [name, version] of Object.entries(manifest.dependencies as Record<string, string>)) {
      if (name.startsWith("@runvil/")) continue;
      expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(manifest.dependencies["@ai-sdk/provider"]).toMatch(/^3\./);
    expect(manifest.dependencies.ai).toBeUndefined();
  });
});
