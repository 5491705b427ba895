import { describe, expect, it } from "vitest";
import {
  defaultRun,
  readModels,
  readOperator,
  readRun,
  readStoreFiles,
  readWeb,
} from "./read-inputs";
import { issueCollector } from "./test-support";

describe("readRun", () => {
  it("defaults to run-1, seed 0, 2000-01-01T00:00:00Z", () => {
    expect(defaultRun()).toEqual({
      name: "run-1",
      seed: 0,
      start: "2000-01-01T00:00:00Z",
      startEpochMs: 946684800000,
    });
  });

  it("reads every key", () => {
    const { sink, issues } = issueCollector();
    expect(
      readRun(sink, { name: "execute-test", seed: 99, start: "2024-02-29T12:34:56Z" }, ["run"]),
    ).toEqual({
      name: "execute-test",
      seed: 99,
      start: "2024-02-29T12:34:56Z",
      startEpochMs: Date.UTC(2024, 1, 29, 12, 34, 56),
    });
    expect(issues).toEqual([]);
  });

  it("takes a seed past 2^53 as a text of digits, and refuses one past 2^64 - 1", () => {
    const { issues, sink } = issueCollector();
    expect(readRun(sink, { seed: "18446744073709551615" }, ["run"]).seed).toBe(
      "18446744073709551615",
    );
    readRun(sink, { seed: "18446744073709551616" }, ["run"]);
    readRun(sink, { seed: "12a" }, ["run"]);
    expect(issues).toEqual([
      'run.seed: must be a whole number from 0 to 18446744073709551615, got "18446744073709551616"',
      'run.seed: must be a whole number from 0 to 18446744073709551615, got "12a"',
    ]);
  });

  it("refuses a negative seed", () => {
    const { sink, issues } = issueCollector();
    readRun(sink, { seed: -1 }, ["run"]);
    expect(issues).toEqual(["run.seed: must be at least 0, got -1"]);
  });
});

describe("readModels", () => {
  it("reads bindings and every kind of reply", () => {
    const { sink, issues } = issueCollector();
    const models = readModels(
      sink,
      {
        bind: { writer: "claude-sonnet-4-6" },
        replies: [
          { text: "hi" },
          {
            tool_calls: [
              { id: "c1", name: "grab", arguments: [1, 2] },
              { id: "c2", name: "grab" },
            ],
          },
          { fail: { kind: "context_exhausted", message: "full" } },
          { empty: {} },
        ],
      },
      ["models"],
    );
    expect(models).toEqual({
      bind: { writer: "claude-sonnet-4-6" },
      replies: [
        { kind: "message", text: "hi", toolCalls: [] },
        {
          kind: "message",
          text: "",
          toolCalls: [
            { id: "c1", name: "grab", arguments: [1, 2] },
            { id: "c2", name: "grab", arguments: {} },
          ],
        },
        { kind: "fail", failure: { kind: "context_exhausted", message: "full" } },
        { kind: "empty" },
      ],
    });
    expect(issues).toEqual([]);
  });

  it("refuses a reply with neither text nor tool calls, and an empty binding", () => {
    const { sink, issues } = issueCollector();
    readModels(sink, { bind: { writer: " " }, replies: [{ tool_calls: [] }] }, ["models"]);
    expect(issues).toEqual([
      "models.bind.writer: must name a catalog model id",
      'models.replies[0]: a reply needs "text" or "tool_calls" (a reply with neither is written empty: {})',
    ]);
  });

  it("refuses an empty reply with other keys", () => {
    const { sink, issues } = issueCollector();
    readModels(sink, { replies: [{ empty: {}, text: "x", tool_calls: [] }] }, ["models"]);
    expect(issues).toEqual([
      'models.replies[0]: a "empty" reply has no other keys; remove "text", "tool_calls"',
    ]);
  });

  it("reads a reply's usage, each count defaulting to 0", () => {
    const { sink, issues } = issueCollector();
    const models = readModels(
      sink,
      {
        replies: [
          { text: "hi", usage: { input: 12, output: 3 } },
          { tool_calls: [{ id: "c", name: "x" }], usage: { output: 9 } },
          { empty: { finish_reason: "length", usage: { input: 1 } } },
        ],
      },
      ["models"],
    );
    expect(models.replies).toEqual([
      { kind: "message", text: "hi", toolCalls: [], usage: { input: 12, output: 3 } },
      {
        kind: "message",
        text: "",
        toolCalls: [{ id: "c", name: "x", arguments: {} }],
        usage: { input: 0, output: 9 },
      },
      { kind: "empty", finishReason: "length", usage: { input: 1, output: 0 } },
    ]);
    expect(issues).toEqual([]);
  });

  it("refuses usage that is not whole token counts", () => {
    const { sink, issues } = issueCollector();
    readModels(
      sink,
      {
        replies: [
          { text: "a", usage: { input: -1 } },
          { text: "b", usage: { tokens: 1 } },
        ],
      },
      ["models"],
    );
    expect(issues).toEqual([
      "models.replies[0].usage.input: must be at least 0, got -1",
      'models.replies[1].usage.tokens: unknown key "tokens"; the keys here are: input, output, cached_input, reasoning',
    ]);
  });

  it("reads cached input and reasoning tokens of a reply's usage", () => {
    const { sink, issues } = issueCollector();
    const models = readModels(
      sink,
      { replies: [{ text: "hi", usage: { input: 12, output: 3, cached_input: 8, reasoning: 2 } }] },
      ["models"],
    );
    expect(models.replies).toEqual([
      {
        kind: "message",
        text: "hi",
        toolCalls: [],
        usage: { input: 12, output: 3, cachedInput: 8, reasoning: 2 },
      },
    ]);
    expect(issues).toEqual([]);
  });

  it("reads a catalog model's prices per million tokens", () => {
    const { sink, issues } = issueCollector();
    const models = readModels(
      sink,
      {
        catalog: {
          priced: { prices: { input: 3, output: 15, cached_input: 0.3 } },
          plain: { prices: { input: 0.5, output: 1.5 } },
        },
      },
      ["models"],
    );
    expect(models.catalog).toEqual({
      priced: { prices: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 } },
      plain: { prices: { inputPerMillion: 0.5, outputPerMillion: 1.5 } },
    });
    expect(issues).toEqual([]);
  });

  it("refuses prices that are missing, negative or not numbers", () => {
    const { sink, issues } = issueCollector();
    readModels(
      sink,
      {
        catalog: {
          a: { prices: { input: 1 } },
          b: { prices: { input: -1, output: 1 } },
          c: { prices: { input: 1, output: 1, cached_input: "cheap" } },
          d: { prices: 3 },
        },
      },
      ["models"],
    );
    expect(issues).toEqual([
      'models.catalog.a.prices: missing required key "output"',
      "models.catalog.b.prices.input: must be a number of at least 0, got a number (-1)",
      'models.catalog.c.prices.cached_input: must be a number of at least 0, got a string ("cheap")',
      "models.catalog.d.prices: must be a mapping, got a number (3)",
    ]);
  });

  it("reads models.catalog: each model's facts, every key optional", () => {
    const { sink, issues } = issueCollector();
    const models = readModels(
      sink,
      {
        catalog: {
          small: { context_window: 500, max_output_tokens: 100, tools: false },
          "meta-llama/Llama-3.3-70B": {},
        },
      },
      ["models"],
    );
    expect(models.catalog).toEqual({
      small: { contextWindow: 500, maxOutputTokens: 100, tools: false },
      "meta-llama/Llama-3.3-70B": {},
    });
    expect(issues).toEqual([]);
    expect(readModels(sink, {}, ["models"]).catalog).toBeUndefined();
  });

  it("refuses a catalog entry with a bad id, bad numbers or an output over the window", () => {
    const { sink, issues } = issueCollector();
    readModels(
      sink,
      {
        catalog: {
          "gpt 4": {},
          a: { context_window: 0 },
          b: { context_window: 100 },
          c: { max_output_tokens: 300_000 },
          d: { tools: "yes" },
        },
      },
      ["models"],
    );
    expect(issues).toEqual([
      'models.catalog["gpt 4"]: "gpt 4" is not a catalog model id ([A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127})',
      "models.catalog.a.context_window: must be at least 1, got 0",
      "models.catalog.b: max_output_tokens 32000 is over the 100-token context window",
      "models.catalog.c: max_output_tokens 300000 is over the 200000-token context window",
      'models.catalog.d.tools: must be true or false, got a string ("yes")',
    ]);
    const other = issueCollector();
    readModels(other.sink, { catalog: [] }, ["models"]);
    expect(other.issues).toEqual([
      "models.catalog: must be a mapping of catalog model ids to their facts, got a list",
    ]);
  });

  it("takes the fail kinds a provider may name, and only the reason provider", () => {
    const { sink, issues } = issueCollector();
    const models = readModels(
      sink,
      {
        replies: [
          { fail: { kind: "context_exhausted", reason: "provider", message: "full" } },
          { fail: { kind: "internal", message: "model is down" } },
          { fail: { kind: "completion", message: "no" } },
          { fail: { kind: "context_exhausted", reason: "precheck", message: "full" } },
          { fail: { kind: "internal", reason: "provider", message: "down" } },
        ],
      },
      ["models"],
    );
    expect(models.replies).toEqual([
      { kind: "fail", failure: { kind: "context_exhausted", reason: "provider", message: "full" } },
      { kind: "fail", failure: { kind: "internal", message: "model is down" } },
    ]);
    expect(issues).toEqual([
      'models.replies[2].fail.kind: must be one of context_exhausted, internal (the kinds a model provider fails a round with), got "completion"',
      "models.replies[3].fail.reason: a provider's context_exhausted has reason provider (precheck is the Engine's own), got \"precheck\"",
      "models.replies[4].fail.reason: an internal failure has no reason; remove it",
    ]);
  });

  it("does not add a structural complaint to a misspelt key", () => {
    const { sink, issues } = issueCollector();
    readModels(sink, { replies: [{ texts: "x" }] }, ["models"]);
    expect(issues).toEqual(['models.replies[0].texts: unknown key "texts"; did you mean "text"?']);
  });
});

describe("readOperator", () => {
  it("reads answers, failures and holds in order", () => {
    const { sink, issues } = issueCollector();
    expect(
      readOperator(sink, ["hi", { fail: "closed" }, { hold: true }, ""], ["operator"]),
    ).toEqual([
      { kind: "answer", text: "hi" },
      { kind: "fail", message: "closed" },
      { kind: "hold" },
      { kind: "answer", text: "" },
    ]);
    expect(issues).toEqual([]);
  });

  it("refuses an empty failure message", () => {
    const { sink, issues } = issueCollector();
    readOperator(sink, [{ fail: "" }], ["operator"]);
    expect(issues).toEqual(["operator[0].fail: must not be empty"]);
  });
});

describe("readWeb and readStoreFiles", () => {
  it("reads pages and search results", () => {
    const { sink, issues } = issueCollector();
    expect(readWeb(sink, { pages: { "https://a/": "A" } }, ["web"])).toEqual({
      pages: { "https://a/": "A" },
      search: {},
    });
    expect(issues).toEqual([]);
  });

  it("refuses an empty store path", () => {
    const { sink, issues } = issueCollector();
    expect(readStoreFiles(sink, { "": "x" }, ["store"])).toEqual({});
    expect(issues).toEqual(['store[""]: a store path must not be empty']);
  });
});
