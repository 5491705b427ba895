import { describe, expect, it } from "vitest";
import { ModelCatalog } from "../setup/model-catalog";
import { testModel, testProvider, testRole } from "../test-support";
import { type BindingInputs, bindModels } from "./bind-models";

const OPENAI = testProvider("openai", [
  "gpt-4.1",
  testModel("gpt-4.1-mini", { contextWindow: 128_000, maxOutputTokens: 16_384, tools: false }),
]);
const ANTHROPIC = testProvider("anthropic", ["claude-sonnet-4-6"]);

function catalogOf(...providers: ReturnType<typeof testProvider>[]): ModelCatalog {
  const catalog = new ModelCatalog();
  for (const provider of providers) catalog.add("test", provider);
  return catalog;
}

function inputs(overrides: Partial<BindingInputs> = {}): BindingInputs {
  return {
    catalog: catalogOf(OPENAI, ANTHROPIC).models,
    overrides: {},
    defaultModel: undefined,
    ...overrides,
  };
}

function linesOf(result: ReturnType<typeof bindModels>): readonly string[] {
  if (result.ok) throw new Error("expected a refusal");
  return result.lines;
}

describe("bindModels", () => {
  it("binds a role to the first id of its model: list that the catalog has", () => {
    const result = bindModels(
      [testRole("writer", { model: ["gpt-5", "claude-sonnet-4-6", "gpt-4.1"] })],
      inputs(),
    );
    expect(result.ok && result.roles).toEqual([
      {
        label: "writer",
        model: "claude-sonnet-4-6",
        contextWindow: 200_000,
        maxOutputTokens: 32_000,
        tools: true,
        settings: {},
        maxRounds: 20,
        provider: "anthropic",
        from: "model",
      },
    ]);
    expect(result.ok && [...result.providers]).toEqual([["claude-sonnet-4-6", ANTHROPIC]]);
  });

  it("passes the bound model's prices, when its catalog entry gives them", () => {
    const prices = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 };
    const priced = testProvider("priced", [testModel("sonnet", { prices })]);
    const result = bindModels([testRole("writer", { model: ["sonnet", "gpt-4.1"] })], {
      ...inputs(),
      catalog: catalogOf(priced, OPENAI).models,
    });
    expect(result.ok && result.roles[0]?.prices).toEqual(prices);
    const plain = bindModels([testRole("writer", { model: ["gpt-4.1"] })], inputs());
    expect(plain.ok && plain.roles[0] !== undefined && "prices" in plain.roles[0]).toBe(false);
  });

  it("passes the role's system text, generation settings and round cap", () => {
    const result = bindModels(
      [
        testRole("critic", {
          model: ["gpt-4.1-mini"],
          system: "Be harsh.",
          temperature: 0,
          maxOutputTokens: 1000,
          stop: ["END"],
          maxRounds: 5,
        }),
      ],
      inputs(),
    );
    expect(result.ok && result.roles[0]).toEqual({
      label: "critic",
      model: "gpt-4.1-mini",
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      tools: false,
      system: "Be harsh.",
      settings: { temperature: 0, maxOutputTokens: 1000, stop: ["END"] },
      maxRounds: 5,
      provider: "openai",
      from: "model",
    });
  });

  it("binds by override first, whatever the role's model: says", () => {
    const result = bindModels(
      [testRole("writer", { model: ["gpt-4.1"] }), testRole("critic")],
      inputs({ overrides: { writer: "claude-sonnet-4-6", critic: "gpt-4.1-mini" } }),
    );
    expect(result.ok && result.roles.map((role) => [role.label, role.model, role.from])).toEqual([
      ["writer", "claude-sonnet-4-6", "override"],
      ["critic", "gpt-4.1-mini", "override"],
    ]);
  });

  it("ignores an override for a label the prompt does not declare", () => {
    const result = bindModels(
      [testRole("writer", { model: ["gpt-4.1"] })],
      inputs({ overrides: { editor: "nowhere" } }),
    );
    expect(result.ok && result.roles.map((role) => role.model)).toEqual(["gpt-4.1"]);
  });

  it("binds a role without model: to the Host's default, else the catalog's only model", () => {
    const withDefault = bindModels([testRole("writer")], inputs({ defaultModel: "gpt-4.1" }));
    expect(withDefault.ok && [withDefault.roles[0]?.model, withDefault.roles[0]?.from]).toEqual([
      "gpt-4.1",
      "default",
    ]);
    const only = bindModels([testRole("writer")], inputs({ catalog: catalogOf(ANTHROPIC).models }));
    expect(only.ok && [only.roles[0]?.model, only.roles[0]?.from]).toEqual([
      "claude-sonnet-4-6",
      "only",
    ]);
  });

  it("binds no roles at all for a prompt that declares none", () => {
    const result = bindModels([], inputs({ catalog: new ModelCatalog().models }));
    expect(result).toEqual({ ok: true, roles: [], providers: new Map() });
  });

  it("refuses every role that cannot bind, one line each, in models: order", () => {
    const result = bindModels(
      [
        testRole("a", { model: ["gpt-5"] }),
        testRole("b", { model: ["gpt-5", "o9"] }),
        testRole("c"),
        testRole("d", { model: ["gpt-4.1"] }),
        testRole("e", { model: ["gpt-4.1-mini"], maxOutputTokens: 20_000 }),
        testRole("f"),
      ],
      inputs({ overrides: { f: "llama3.1:8b" } }),
    );
    expect(linesOf(result)).toEqual([
      "- model role a cannot be bound: `gpt-5` is not in this host's model catalog",
      "- model role b cannot be bound: none of `gpt-5`, `o9` is in this host's model catalog",
      "- model role c cannot be bound: it names no model, and this host has no default model; set model: under models.c",
      "- model role e cannot be bound: max_output_tokens 20000 is over the 16384 tokens gpt-4.1-mini can write",
      "- model role f cannot be bound: `llama3.1:8b` is not in this host's model catalog",
    ]);
  });

  it("refuses a Host default that is not in the catalog", () => {
    expect(linesOf(bindModels([testRole("writer")], inputs({ defaultModel: "gpt-5" })))).toEqual([
      "- model role writer cannot be bound: `gpt-5` is not in this host's model catalog",
    ]);
  });

  it("says so when the Host has no model provider at all", () => {
    const empty = new ModelCatalog().models;
    expect(
      linesOf(
        bindModels(
          [testRole("writer"), testRole("critic", { model: ["gpt-4.1"] })],
          inputs({ catalog: empty }),
        ),
      ),
    ).toEqual([
      "- model role writer cannot be bound: it names no model, and this host has no default model; set model: under models.writer; this host has no model provider",
      "- model role critic cannot be bound: `gpt-4.1` is not in this host's model catalog; this host has no model provider",
    ]);
  });
});
