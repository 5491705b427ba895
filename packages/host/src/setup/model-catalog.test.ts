import type { ModelProvider } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "../host";
import { HostSetupError } from "../host-setup-error";
import { providerPlugin, rejectionOf, testModel, testProvider } from "../test-support";
import { ModelCatalog } from "./model-catalog";

/** The problem `add` throws for this provider value (fails the test when it adds). */
function problemOf(provider: unknown, catalog = new ModelCatalog()): string {
  try {
    catalog.add("acme", provider);
  } catch (error) {
    if (!(error instanceof HostSetupError)) throw error;
    return error.message;
  }
  throw new Error("expected a HostSetupError");
}

/** A provider value with one model whose facts are laid over the defaults. */
function withModel(facts: Record<string, unknown>): unknown {
  return { ...testProvider("openai", []), models: [{ ...testModel("gpt-4.1"), ...facts }] };
}

describe("ModelCatalog", () => {
  it("registers each provider's models by id, in order, with the plugin that added them", () => {
    const catalog = new ModelCatalog();
    const openai = testProvider("openai", ["gpt-4.1", "gpt-4.1-mini"]);
    const anthropic = testProvider("anthropic", ["claude-sonnet-4-6"]);
    catalog.add("@runvil/plugin-ai-sdk", openai);
    catalog.add("acme", anthropic);
    expect([...catalog.models.keys()]).toEqual(["gpt-4.1", "gpt-4.1-mini", "claude-sonnet-4-6"]);
    expect(catalog.models.get("claude-sonnet-4-6")).toEqual({
      info: testModel("claude-sonnet-4-6"),
      provider: anthropic,
      plugin: "acme",
    });
    expect(catalog.providers).toEqual([openai, anthropic]);
  });

  it("keeps a frozen copy of the facts, so a provider cannot change them later", () => {
    const catalog = new ModelCatalog();
    const info = {
      ...testModel("m-1"),
      prices: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 },
    };
    const provider: ModelProvider = { ...testProvider("p", []), models: [info] };
    catalog.add("acme", provider);
    (info as { contextWindow: number }).contextWindow = 1;
    const kept = catalog.models.get("m-1")?.info;
    expect(kept?.contextWindow).toBe(200_000);
    expect(kept?.prices).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cachedInputPerMillion: 0.3,
    });
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept?.prices)).toBe(true);
  });

  it("accepts a provider with no models", () => {
    const catalog = new ModelCatalog();
    catalog.add("acme", testProvider("empty", []));
    expect(catalog.models.size).toBe(0);
    expect(catalog.providers).toHaveLength(1);
  });

  it("refuses a value that is not a provider", () => {
    expect(problemOf(null)).toBe(
      "plugin acme: addModelProvider needs a model provider (specificationVersion 1, a string name, a models array and a round function), got null",
    );
    expect(problemOf([])).toMatch(/, got array$/);
  });

  it("refuses another specification version", () => {
    expect(problemOf({ ...testProvider("p", []), specificationVersion: 2 })).toBe(
      "plugin acme: a model provider speaks specification version 2; this Host speaks 1",
    );
    expect(problemOf({ ...testProvider("p", []), specificationVersion: "v1" })).toBe(
      'plugin acme: a model provider speaks specification version "v1"; this Host speaks 1',
    );
    const { specificationVersion: _, ...unversioned } = testProvider("p", []);
    expect(problemOf(unversioned)).toBe(
      "plugin acme: a model provider names no specification version; this Host speaks 1",
    );
  });

  it("refuses a provider without a name, a round function or a models array", () => {
    expect(problemOf({ ...testProvider("p", []), name: "" })).toBe(
      'plugin acme: a model provider needs a name (a non-empty string), got ""',
    );
    expect(problemOf({ ...testProvider("p", []), round: "go" })).toBe(
      "plugin acme: model provider p: round must be a function, got string",
    );
    expect(problemOf({ ...testProvider("p", []), models: ["gpt-4.1"] })).toBe(
      "plugin acme: model provider p: models[0] must be a model's facts ({ id, contextWindow, maxOutputTokens, tools }), got string",
    );
    expect(problemOf({ ...testProvider("p", []), models: {} })).toBe(
      "plugin acme: model provider p: models must be an array of models, got object",
    );
  });

  it("checks every model's facts, naming the field", () => {
    const at = "plugin acme: model provider openai: models[0]";
    expect(problemOf(withModel({ id: "gpt 4" }))).toBe(
      `${at}.id must be a catalog model id ([A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}), got "gpt 4"`,
    );
    expect(problemOf(withModel({ id: 4 }))).toBe(
      `${at}.id must be a catalog model id ([A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}), got 4`,
    );
    expect(problemOf(withModel({ contextWindow: 0 }))).toBe(
      `${at}.contextWindow must be a whole number of at least 1, got 0`,
    );
    expect(problemOf(withModel({ contextWindow: 1.5 }))).toBe(
      `${at}.contextWindow must be a whole number of at least 1, got 1.5`,
    );
    expect(problemOf(withModel({ maxOutputTokens: 300_000 }))).toBe(
      `${at}.maxOutputTokens must be a whole number from 1 to its contextWindow (200000), got 300000`,
    );
    expect(problemOf(withModel({ maxOutputTokens: "lots" }))).toBe(
      `${at}.maxOutputTokens must be a whole number from 1 to its contextWindow (200000), got "lots"`,
    );
    expect(problemOf(withModel({ tools: "yes" }))).toBe(
      `${at}.tools must be a boolean, got string`,
    );
  });

  it("checks prices: each a number of at least 0", () => {
    const at = "plugin acme: model provider openai: models[0].prices";
    expect(problemOf(withModel({ prices: 3 }))).toBe(
      `${at} must be an object of USD prices per million tokens, got number`,
    );
    expect(problemOf(withModel({ prices: { inputPerMillion: -1, outputPerMillion: 1 } }))).toBe(
      `${at}.inputPerMillion must be a number of at least 0, got -1`,
    );
    expect(problemOf(withModel({ prices: { inputPerMillion: 1 } }))).toBe(
      `${at}.outputPerMillion must be a number of at least 0, got undefined`,
    );
    expect(
      problemOf(
        withModel({
          prices: { inputPerMillion: 1, outputPerMillion: 2, cachedInputPerMillion: Number.NaN },
        }),
      ),
    ).toBe(`${at}.cachedInputPerMillion must be a number of at least 0, got NaN`);
  });

  it("refuses a catalog id two providers serve, or one provider lists twice", () => {
    const catalog = new ModelCatalog();
    catalog.add("first", testProvider("openai", ["gpt-4.1"]));
    expect(problemOf(testProvider("azure", ["o3", "gpt-4.1"]), catalog)).toBe(
      "plugin acme: model gpt-4.1 is served by providers openai and azure; a catalog id names one model",
    );
    expect(problemOf(testProvider("dup", ["m", "m"]))).toBe(
      "plugin acme: model provider dup lists model m twice",
    );
  });

  it("adds nothing of a provider it refuses", () => {
    const catalog = new ModelCatalog();
    problemOf(
      { ...testProvider("p", ["ok-1"]), models: [testModel("ok-1"), { id: "bad" }] },
      catalog,
    );
    expect(catalog.models.size).toBe(0);
    expect(catalog.providers).toEqual([]);
  });
});

describe("createHost with model providers", () => {
  it("rejects the Host with the refusal, even when the plugin caught it", async () => {
    const sneaky = {
      plugin: {
        name: "sneaky",
        setup(api: { addModelProvider(provider: ModelProvider): void }) {
          try {
            api.addModelProvider({ ...testProvider("p", []), specificationVersion: 3 } as never);
          } catch {
            // swallowed
          }
        },
      },
    };
    const error = await rejectionOf(createHost({ plugins: [sneaky] }));
    expect(error).toBeInstanceOf(HostSetupError);
    expect((error as Error).message).toBe(
      "plugin sneaky: a model provider speaks specification version 3; this Host speaks 1",
    );
  });

  it("offers the catalog as host.models and the providers as host.modelProviders", async () => {
    const a = testProvider("a", ["m-1"]);
    const b = testProvider("b", ["m-2", "m-3"]);
    const host = await createHost({
      plugins: [{ plugin: providerPlugin("one", a) }, { plugin: providerPlugin("two", b) }],
      defaultModel: "m-2",
    });
    expect([...host.models.keys()]).toEqual(["m-1", "m-2", "m-3"]);
    expect(host.models.get("m-3")?.provider).toBe(b);
    expect(host.modelProviders).toEqual([a, b]);
    expect(host.defaultModel).toBe("m-2");
  });
});
