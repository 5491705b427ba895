import { describe, expect, it } from "vitest";
import { EXPECT_KEYS, readExpectations } from "./read-expect";
import { issueCollector } from "./test-support";

describe("readExpectations", () => {
  it("lists the keys of the format in report order", () => {
    expect(EXPECT_KEYS).toEqual([
      "parse_error",
      "outcome",
      "error",
      "result",
      "result_matches",
      "checkpoints",
      "model_requests",
      "events",
      "store",
      "var",
      "usage",
    ]);
  });

  it("types every key", () => {
    const { sink, issues } = issueCollector();
    expect(
      readExpectations(
        sink,
        {
          result: "",
          result_matches: "^a",
          error: { kind: "Lua", message_matches: "b$", cause_contains: "c" },
          outcome: "failed",
          checkpoints: [],
          model_requests: [{}, { tools: [], messages: 0, tool_definitions: [{}] }],
          events: [{ type: "x", n: 1 }],
          store: {},
          var: [],
        },
        ["expect"],
      ),
    ).toEqual({
      result: "",
      resultMatches: "^a",
      error: { kind: "Lua", messageMatches: "b$", causeContains: "c" },
      outcome: "failed",
      checkpoints: [],
      modelRequests: [{}, { tools: [], messages: 0, toolDefinitions: [{}] }],
      events: [{ type: "x", n: 1 }],
      store: {},
      var: [],
    });
    expect(issues).toEqual([]);
  });

  it("allows error with outcome failed or cancelled, not succeeded", () => {
    const { sink, issues } = issueCollector();
    readExpectations(sink, { error: {}, outcome: "failed" }, ["expect"]);
    readExpectations(sink, { error: {}, outcome: "cancelled" }, ["expect"]);
    expect(issues).toEqual([]);
    readExpectations(sink, { error: {}, outcome: "succeeded" }, ["expect"]);
    expect(issues).toEqual([
      "expect.outcome: contradicts error: a run that fails does not succeed",
    ]);
  });

  it("allows parse_error beside checkpoints, model_requests, events, store and var", () => {
    const { sink, issues } = issueCollector();
    readExpectations(
      sink,
      { parse_error: {}, model_requests: [], store: {}, checkpoints: [], var: null },
      ["expect"],
    );
    expect(issues).toEqual([]);
  });

  it("refuses parse_error beside each key about a run that never started", () => {
    const { sink, issues } = issueCollector();
    readExpectations(
      sink,
      { parse_error: {}, result: "a", result_matches: "a", error: {}, outcome: "failed" },
      ["expect"],
    );
    expect(issues).toEqual(
      ["result", "result_matches", "error", "outcome"].map(
        (key) =>
          `expect.${key}: cannot hold beside parse_error: a prompt that fails to parse never runs`,
      ),
    );
  });
});

describe("readExpectations usage", () => {
  it("reads counts and a cost, text or null", () => {
    const { sink, issues } = issueCollector();
    const read = readExpectations(sink, { usage: { rounds: 2, cost_usd: "0.0042" } }, ["expect"]);
    expect(read.usage).toEqual({ rounds: 2, cost_usd: "0.0042" });
    expect(readExpectations(sink, { usage: { cost_usd: null } }, ["expect"]).usage).toEqual({
      cost_usd: null,
    });
    expect(issues).toEqual([]);
  });

  it("refuses a cost that is a number or has trailing zeros, and unknown keys", () => {
    const { sink, issues } = issueCollector();
    readExpectations(sink, { usage: { cost_usd: 0.1 } }, ["expect"]);
    readExpectations(sink, { usage: { cost_usd: "0.10" } }, ["expect"]);
    readExpectations(sink, { usage: { tokens: 3 } }, ["expect"]);
    expect(issues).toEqual([
      'expect.usage.cost_usd: must be a dollar amount as text without trailing zeros, such as "0.0042", or null for an unknown cost, got a number (0.1)',
      'expect.usage.cost_usd: must be a dollar amount as text without trailing zeros, such as "0.0042", or null for an unknown cost, got a string ("0.10")',
      'expect.usage.tokens: unknown key "tokens"; the keys here are: rounds, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens, cost_usd, unpriced_rounds',
    ]);
  });
});
