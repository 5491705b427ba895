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
