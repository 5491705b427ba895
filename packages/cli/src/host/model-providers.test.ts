import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHostConfig } from "@runvil/host";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { hostForConfig } from "./cli-host";
import { providerLoading, scenarioProviderLoader } from "./model-providers";

const dir = mkdtempSync(join(tmpdir(), "runvil-model-providers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.env.OPENAI_API_KEY = "";
  process.env.ANTHROPIC_API_KEY = "";
});

function config(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

const LOCAL = {
  module: "@ai-sdk/openai-compatible",
  options: { baseURL: "http://127.0.0.1:9/v1" },
  models: { qwen3: { contextWindow: 32768, maxOutputTokens: 4096 } },
};

describe("the CLI's model providers", () => {
  it("offers no model without a configuration or a key", async () => {
    const loaded = await hostForConfig(undefined);
    if (!loaded.ok) throw new Error(loaded.message);
    expect([...loaded.host.models.keys()]).toEqual([]);
    expect(loaded.host.defaultModel).toBeUndefined();
  });

  it("offers OpenAI and Anthropic for the keys set, with the documented default model", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-ant-test-1234";
    const anthropic = await hostForConfig(undefined);
    if (!anthropic.ok) throw new Error(anthropic.message);
    expect([...anthropic.host.models.keys()]).toEqual([
      "anthropic:claude-sonnet-4-5",
      "anthropic:claude-haiku-4-5",
      "anthropic:claude-opus-4-1",
    ]);
    expect(anthropic.host.defaultModel).toBe("anthropic:claude-sonnet-4-5");
    process.env.OPENAI_API_KEY = "sk-test-1234";
    const both = await hostForConfig(config("empty.json", { plugins: [] }));
    if (!both.ok) throw new Error(both.message);
    expect(both.host.defaultModel).toBe("openai:gpt-5-mini");
    expect(both.host.models.get("openai:gpt-4.1")?.info.prices).toEqual({
      inputPerMillion: 2,
      outputPerMillion: 8,
      cachedInputPerMillion: 0.5,
    });
  });

  it("takes a configuration's providers and default model instead of the defaults", async () => {
    process.env.OPENAI_API_KEY = "sk-test-1234";
    const loaded = await hostForConfig(
      config("local.json", {
        plugins: [],
        providers: { local: LOCAL },
        defaultModel: "local:qwen3",
      }),
    );
    if (!loaded.ok) throw new Error(loaded.message);
    expect([...loaded.host.models.keys()]).toEqual(["local:qwen3"]);
    expect(loaded.host.defaultModel).toBe("local:qwen3");
    const noDefault = await hostForConfig(
      config("local2.json", { plugins: [], providers: { local: LOCAL } }),
    );
    expect(noDefault.ok && noDefault.host.defaultModel).toBeUndefined();
  });

  it("names the file and the key of a bad provider entry", async () => {
    const file = config("bad.json", {
      plugins: [],
      providers: { local: { ...LOCAL, models: {} } },
    });
    expect(await hostForConfig(file)).toEqual({
      ok: false,
      message: `${file}: providers.local.models must name at least one model`,
    });
    const missing = config("missing.json", {
      plugins: [],
      providers: { x: { module: "@ai-sdk/nowhere", models: {} } },
    });
    const refused = await hostForConfig(missing);
    expect(refused.ok ? "" : refused.message).toMatch(
      /providers\.x\.module: cannot find "@ai-sdk\/nowhere"/,
    );
  });

  it("gives scenarios a file's providers but never the default ones", async () => {
    process.env.OPENAI_API_KEY = "sk-test-1234";
    expect(await scenarioProviderLoader().plugin(undefined)).toBeUndefined();
    const options = await loadHostConfig(
      config("s.json", { plugins: [], providers: { local: LOCAL } }),
      {
        providers: scenarioProviderLoader(),
      },
    );
    expect(options.plugins.map((p) => p.plugin.name)).toEqual(["@runvil/plugin-ai-sdk"]);
    const loading = providerLoading({ OPENAI_API_KEY: "sk" });
    expect(loading.defaultModel()).toBeUndefined();
    await loading.loader.plugin(undefined);
    expect(loading.defaultModel()).toBe("openai:gpt-5-mini");
  });
});
