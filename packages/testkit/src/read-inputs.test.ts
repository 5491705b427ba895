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
