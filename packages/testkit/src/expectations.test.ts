import { describe, expect, it } from "vitest";
import { checkExpectations, type Mismatch } from "./expectations";
import { EXPECT_KEYS } from "./read-expect";
import type { RunRecord } from "./run-record";
import type { EventExpectation, Expectations } from "./scenario-types";
import { runRecord, TEST_NONCE } from "./test-support";

/** Checks and returns the mismatch paths, for the many tests that only need where it failed. */
function paths(expectations: Expectations, record: RunRecord): string[] {
  return checkExpectations(expectations, record).map((mismatch) => mismatch.path);
}

function only(expectations: Expectations, record: RunRecord): Mismatch {
  const mismatches = checkExpectations(expectations, record);
  expect(mismatches).toHaveLength(1);
  const [first] = mismatches;
  if (first === undefined) throw new Error("no mismatch");
  return first;
}

const failedRun = (kind: string, message: string, cause?: string): RunRecord =>
  runRecord({
    outcome: "failed",
    result: undefined,
    error: cause === undefined ? { kind, message } : { kind, message, cause },
  });

describe("every expect key can fail (runner self-check)", () => {
  // One failing example per key of the format; the list must cover EXPECT_KEYS exactly, so a
  // new key cannot be added without showing that its check can fail.
  const failing: Record<(typeof EXPECT_KEYS)[number], [Expectations, RunRecord]> = {
    parse_error: [{ parseError: { kind: "Frontmatter" } }, runRecord()],
    outcome: [{ outcome: "failed" }, runRecord()],
    error: [{ error: { kind: "Lua" } }, runRecord()],
    result: [{ result: "ko" }, runRecord()],
    result_matches: [{ resultMatches: "^ko$" }, runRecord()],
    checkpoints: [{ checkpoints: ["Lua: a"] }, runRecord()],
    model_requests: [{ modelRequests: [{}] }, runRecord()],
    events: [{ events: [{ type: "model_turn_completed" }] }, runRecord()],
    store: [{ store: { "a.txt": "x" } }, runRecord()],
    var: [{ var: { kept: "yes" } }, runRecord()],
    usage: [{ usage: { cost_usd: "0.1" } }, runRecord({ usage: { cost_usd: null } })],
  };

  it("covers every key of expect", () => {
    expect(Object.keys(failing).sort()).toEqual([...EXPECT_KEYS].sort());
  });

  for (const [key, [expectations, record]] of Object.entries(failing)) {
    it(`${key} fails on a run that breaks it`, () => {
      const found = paths(expectations, record);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^expect\\.${key}(?:$|[.[])`));
    });
  }

  it("an empty expectation set never fails a run that parsed", () => {
    expect(checkExpectations({}, runRecord())).toEqual([]);
  });
});

describe("usage", () => {
  const usage = { rounds: 2, input_tokens: 10, cost_usd: "0.0042", unpriced_rounds: 0 };

  it("passes when every key given equals the run's total", () => {
    expect(
      checkExpectations({ usage: { rounds: 2, cost_usd: "0.0042" } }, runRecord({ usage })),
    ).toEqual([]);
  });

  it("names each key that differs, with both values", () => {
    expect(only({ usage: { cost_usd: null } }, runRecord({ usage }))).toEqual({
      path: "expect.usage.cost_usd",
      message: `expected the run's cost_usd to be null, got "0.0042"`,
      expected: null,
      actual: "0.0042",
    });
  });

  it("fails every key of a run that never started", () => {
    expect(paths({ usage: { rounds: 0 } }, runRecord())).toEqual(["expect.usage.rounds"]);
  });
});

describe("result", () => {
  it("passes on the exact text", () => {
    expect(checkExpectations({ result: "ok" }, runRecord())).toEqual([]);
  });

  it("fails on a different one-line text, naming the column", () => {
    expect(only({ result: "okay" }, runRecord({ result: "okey" }))).toEqual({
      path: "expect.result",
      message: "the result differs at column 3",
      expected: "okay",
      actual: "okey",
    });
  });

  it("is exact: a longer result fails", () => {
    expect(only({ result: "ok" }, runRecord({ result: "ok!" })).message).toBe(
      "the result differs at column 3 (the actual text is longer)",
    );
  });

  it("is exact: trailing whitespace counts", () => {
    expect(only({ result: "ok" }, runRecord({ result: "ok\n" })).message).toBe(
      "the result differs at line 1, column 3 (only trailing whitespace differs)",
    );
  });

  it("gives a line diff for multi-line texts", () => {
    const mismatch = only({ result: "a\nb\nc" }, runRecord({ result: "a\nB\nc" }));
    expect(mismatch.message).toBe("the result differs at line 2, column 1");
    expect(mismatch.diff).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: "b" },
      { op: "added", text: "B" },
      { op: "same", text: "c" },
    ]);
  });

  it("fails when the run produced no result, saying how it ended", () => {
    expect(only({ result: "ok" }, failedRun("Lua", "boom\ntraceback"))).toEqual({
      path: "expect.result",
      message: "the run produced no result: it failed with Lua: boom",
      expected: "ok",
      actual: undefined,
    });
  });

  it("replaces NONCE with the run's nonce", () => {
    const text = `<untrusted_input_${TEST_NONCE}>\npage\n</untrusted_input_${TEST_NONCE}>`;
    const expected = "<untrusted_input_NONCE>\npage\n</untrusted_input_NONCE>";
    expect(
      checkExpectations({ result: expected }, runRecord({ result: text, nonce: TEST_NONCE })),
    ).toEqual([]);
  });

  it("fails when the text holds another nonce, showing the expected text with the nonce in", () => {
    const other = "f".repeat(32);
    const mismatch = only(
      { result: "tag NONCE" },
      runRecord({ result: `tag ${other}`, nonce: TEST_NONCE }),
    );
    expect(mismatch.expected).toBe(`tag ${TEST_NONCE}`);
    expect(mismatch.message).toBe("the result differs at column 5");
  });

  it("keeps NONCE literal when the run has no nonce", () => {
    expect(checkExpectations({ result: "NONCE" }, runRecord({ result: "NONCE" }))).toEqual([]);
    expect(paths({ result: "NONCE" }, runRecord({ result: TEST_NONCE }))).toEqual([
      "expect.result",
    ]);
  });
});

describe("result_matches", () => {
  it("passes when the regular expression matches", () => {
    expect(
      checkExpectations({ resultMatches: "^tool\\|1\\|" }, runRecord({ result: "tool|1|x" })),
    ).toEqual([]);
  });

  it("searches anywhere unless anchored", () => {
    expect(checkExpectations({ resultMatches: "b" }, runRecord({ result: "abc" }))).toEqual([]);
  });

  it("fails when it does not match", () => {
    expect(only({ resultMatches: "^tool\\|2\\|" }, runRecord({ result: "tool|1|x" }))).toEqual({
      path: "expect.result_matches",
      message: "the result does not match the regular expression",
      expected: "^tool\\|2\\|",
      actual: "tool|1|x",
    });
  });

  it("anchors ^ and $ at the ends of the whole text, not at line breaks", () => {
    expect(paths({ resultMatches: "^b$" }, runRecord({ result: "a\nb\nc" }))).toEqual([
      "expect.result_matches",
    ]);
    expect(paths({ resultMatches: "^a\\nb\\nc$" }, runRecord({ result: "a\nb\nc" }))).toEqual([]);
  });

  it("spans lines with [\\s\\S] but not with .", () => {
    const record = runRecord({ result: "first\nsecond" });
    expect(paths({ resultMatches: "^first[\\s\\S]*second$" }, record)).toEqual([]);
    expect(paths({ resultMatches: "^first.*second$" }, record)).toEqual(["expect.result_matches"]);
  });

  it("uses the u flag: . is one code point", () => {
    expect(paths({ resultMatches: "^.$" }, runRecord({ result: "😀" }))).toEqual([]);
  });

  it("fails when the run produced no result", () => {
    expect(only({ resultMatches: "." }, failedRun("Lua", "boom")).message).toBe(
      "the run produced no result: it failed with Lua: boom",
    );
  });

  it("does not replace NONCE inside a regular expression", () => {
    const record = runRecord({ result: TEST_NONCE, nonce: TEST_NONCE });
    expect(paths({ resultMatches: "^NONCE$" }, record)).toEqual(["expect.result_matches"]);
  });

  it("reports a regular expression that does not compile (expectations built by hand)", () => {
    const mismatch = only({ resultMatches: "([" }, runRecord());
    expect(mismatch.message).toMatch(/^invalid regular expression: /);
  });
});

describe("outcome", () => {
  it("passes on the same outcome", () => {
    expect(checkExpectations({ outcome: "succeeded" }, runRecord())).toEqual([]);
    expect(
      checkExpectations({ outcome: "cancelled" }, runRecord({ outcome: "cancelled" })),
    ).toEqual([]);
  });

  it("fails on another outcome, saying how the run ended", () => {
    expect(only({ outcome: "failed" }, runRecord({ result: "done" }))).toEqual({
      path: "expect.outcome",
      message: 'expected the run to end failed, but it succeeded with result "done"',
      expected: "failed",
      actual: "succeeded",
    });
  });

  it("says when the run was cancelled", () => {
    expect(
      only({ outcome: "succeeded" }, runRecord({ outcome: "cancelled", result: undefined }))
        .message,
    ).toBe("expected the run to end succeeded, but it was cancelled");
  });

  it("fails when the run has no outcome", () => {
    expect(
      only({ outcome: "cancelled" }, runRecord({ outcome: undefined, result: undefined })).message,
    ).toBe("expected the run to end cancelled, but it ended without an outcome");
  });
});

describe("error", () => {
  it("error: {} passes on any run error", () => {
    expect(checkExpectations({ error: {} }, failedRun("Lua", "boom"))).toEqual([]);
  });

  it("fails when the run did not fail", () => {
    expect(only({ error: { kind: "Lua", messageContains: "boom" } }, runRecord())).toEqual({
      path: "expect.error",
      message: 'expected the run to fail, but it succeeded with result "ok"',
      expected: { kind: "Lua", message_contains: "boom" },
      actual: undefined,
    });
  });

  it("kind passes when equal and fails otherwise", () => {
    expect(checkExpectations({ error: { kind: "Tool" } }, failedRun("Tool", "x"))).toEqual([]);
    expect(only({ error: { kind: "Tool" } }, failedRun("Lua", "boom\nmore"))).toEqual({
      path: "expect.error.kind",
      message: "expected run error kind Tool, got Lua (boom)",
      expected: "Tool",
      actual: "Lua",
    });
  });

  it("message is the exact first line", () => {
    const run = failedRun("Lua", "first line\nstack traceback:\n\t[C]: in ?");
    expect(checkExpectations({ error: { message: "first line" } }, run)).toEqual([]);
  });

  it("message fails on a prefix of the first line and counts the lines after it", () => {
    const run = failedRun("Lua", "first line\nstack traceback:\n\t[C]: in ?");
    expect(only({ error: { message: "first" } }, run)).toEqual({
      path: "expect.error.message",
      message:
        "the first line of the run error message differs at column 6 (the actual text is longer) (the message has 2 more lines)",
      expected: "first",
      actual: "first line",
    });
  });

  it("message drops a carriage return before the line break", () => {
    expect(
      checkExpectations({ error: { message: "one" } }, failedRun("Lua", "one\r\ntwo")),
    ).toEqual([]);
  });

  it("message replaces NONCE", () => {
    const run = { ...failedRun("Tool", `tag ${TEST_NONCE}`), nonce: TEST_NONCE };
    expect(checkExpectations({ error: { message: "tag NONCE" } }, run)).toEqual([]);
  });

  it("message_contains searches the whole message, across lines", () => {
    const run = failedRun("RequirementsUnmet", "cannot satisfy:\n- web is unavailable");
    expect(checkExpectations({ error: { messageContains: "satisfy:\n- web" } }, run)).toEqual([]);
    expect(only({ error: { messageContains: "- user-input" } }, run)).toEqual({
      path: "expect.error.message_contains",
      message: "the run error message does not contain the expected text",
      expected: "- user-input",
      actual: "cannot satisfy:\n- web is unavailable",
    });
  });

  it("message_contains replaces NONCE", () => {
    const run = { ...failedRun("Tool", `x <t_${TEST_NONCE}> y`), nonce: TEST_NONCE };
    expect(checkExpectations({ error: { messageContains: "<t_NONCE>" } }, run)).toEqual([]);
  });

  it("message_matches tests the whole message, which may span lines", () => {
    const run = failedRun("RequirementsUnmet", "cannot satisfy:\n- a\n- web is unavailable: gone");
    const source = "^cannot satisfy:\\n(?:[^\\n]*\\n)*- web is unavailable: gone(?:\\n|$)";
    expect(checkExpectations({ error: { messageMatches: source } }, run)).toEqual([]);
    expect(paths({ error: { messageMatches: "^- a$" } }, run)).toEqual([
      "expect.error.message_matches",
    ]);
  });

  it("cause_contains passes on a substring of the cause and fails otherwise", () => {
    const run = failedRun("RequirementsUnmet", "gate failed", "the gate cannot hold: x");
    expect(checkExpectations({ error: { causeContains: "cannot hold" } }, run)).toEqual([]);
    expect(only({ error: { causeContains: "can hold" } }, run)).toEqual({
      path: "expect.error.cause_contains",
      message: "the run error's cause does not contain the expected text",
      expected: "can hold",
      actual: "the gate cannot hold: x",
    });
  });

  it("cause_contains fails when the error has no cause", () => {
    expect(only({ error: { causeContains: "x" } }, failedRun("Lua", "boom")).message).toBe(
      "the run error has no cause",
    );
  });

  it("reports every failing sub-key", () => {
    const run = failedRun("Lua", "boom", "why");
    expect(
      paths({ error: { kind: "Tool", message: "bam", causeContains: "because" } }, run),
    ).toEqual(["expect.error.kind", "expect.error.message", "expect.error.cause_contains"]);
  });
});

describe("parse_error", () => {
  const parseFailed = (kind: string, message: string) =>
    runRecord({ parseError: { kind, message }, outcome: undefined, result: undefined });

  it("passes on a matching parse error", () => {
    const run = parseFailed("Frontmatter", "invalid frontmatter: invalid uses entry `1`");
    expect(
      checkExpectations(
        { parseError: { kind: "Frontmatter", messageContains: "invalid uses entry" } },
        run,
      ),
    ).toEqual([]);
  });

  it("fails when the prompt parsed", () => {
    expect(only({ parseError: { kind: "Frontmatter" } }, runRecord())).toEqual({
      path: "expect.parse_error",
      message:
        'expected the prompt to fail to parse, but it parsed and the run succeeded with result "ok"',
      expected: { kind: "Frontmatter" },
      actual: undefined,
    });
  });

  it("kind fails on another parse error kind", () => {
    expect(only({ parseError: { kind: "Lua" } }, parseFailed("Frontmatter", "bad")).message).toBe(
      "expected parse error kind Lua, got Frontmatter (bad)",
    );
  });

  it("message is the exact first line", () => {
    const run = parseFailed("Lua", "section `Main` block 1:2: syntax error\nmore");
    expect(
      checkExpectations({ parseError: { message: "section `Main` block 1:2: syntax error" } }, run),
    ).toEqual([]);
    expect(
      paths({ parseError: { message: "section `Main` block 1:3: syntax error" } }, run),
    ).toEqual(["expect.parse_error.message"]);
  });

  it("message_contains and message_matches pass and fail", () => {
    const run = parseFailed("Frontmatter", "invalid frontmatter:\nmissing name");
    expect(checkExpectations({ parseError: { messageContains: "missing name" } }, run)).toEqual([]);
    expect(paths({ parseError: { messageContains: "missing title" } }, run)).toEqual([
      "expect.parse_error.message_contains",
    ]);
    expect(
      checkExpectations({ parseError: { messageMatches: "^invalid[\\s\\S]*name$" } }, run),
    ).toEqual([]);
    expect(paths({ parseError: { messageMatches: "^missing" } }, run)).toEqual([
      "expect.parse_error.message_matches",
    ]);
  });

  it("a parse error the case does not expect fails it alone, whatever else is expected", () => {
    const run = parseFailed("Frontmatter", "invalid frontmatter: bad\nmore");
    expect(checkExpectations({ result: "ok", store: {} }, run)).toEqual([
      {
        path: "expect.parse_error",
        message:
          "the prompt failed to parse (Frontmatter: invalid frontmatter: bad), and the case expects no parse_error",
        expected: undefined,
        actual: { kind: "Frontmatter", message: "invalid frontmatter: bad\nmore" },
      },
    ]);
  });
});

describe("checkpoints", () => {
  it("passes on exactly these checkpoints in order", () => {
    const run = runRecord({ checkpoints: ["Lua: one", "Lua: two"] });
    expect(checkExpectations({ checkpoints: ["Lua: one", "Lua: two"] }, run)).toEqual([]);
  });

  it("[] passes when none were logged and fails when one was", () => {
    expect(checkExpectations({ checkpoints: [] }, runRecord())).toEqual([]);
    expect(only({ checkpoints: [] }, runRecord({ checkpoints: ["Lua: x"] })).message).toBe(
      "expected 0 checkpoints, got 1: checkpoints[0] and after were not expected",
    );
  });

  it("is exact, not a subsequence: an extra checkpoint between fails", () => {
    const run = runRecord({ checkpoints: ["Lua: one", "Lua: extra", "Lua: two"] });
    const mismatch = only({ checkpoints: ["Lua: one", "Lua: two"] }, run);
    expect(mismatch.message).toBe('checkpoints[1] differs: expected "Lua: two", got "Lua: extra"');
    expect(mismatch.diff).toEqual([
      { op: "same", text: "Lua: one" },
      { op: "added", text: "Lua: extra" },
      { op: "same", text: "Lua: two" },
    ]);
  });

  it("fails on a different order", () => {
    const run = runRecord({ checkpoints: ["Lua: two", "Lua: one"] });
    expect(paths({ checkpoints: ["Lua: one", "Lua: two"] }, run)).toEqual(["expect.checkpoints"]);
  });

  it("fails on a missing checkpoint", () => {
    const run = runRecord({ checkpoints: ["Lua: one"] });
    expect(only({ checkpoints: ["Lua: one", "Lua: two"] }, run).message).toBe(
      'expected 2 checkpoints, got 1: checkpoints[1] "Lua: two" is missing',
    );
  });

  it("replaces NONCE", () => {
    const run = runRecord({ checkpoints: [`Lua: ${TEST_NONCE}`], nonce: TEST_NONCE });
    expect(checkExpectations({ checkpoints: ["Lua: NONCE"] }, run)).toEqual([]);
  });
});

describe("model_requests", () => {
  const request = (
    tools: string[],
    messages = 1,
    toolDefinitions: RunRecord["modelRequests"][number]["toolDefinitions"] = [],
  ) => ({
    tools,
    messages,
    toolDefinitions,
  });
  const grab = {
    name: "grab",
    description: "Grab a value",
    parameters: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
  };

  it("[] passes when no model request was made and fails when one was", () => {
    expect(checkExpectations({ modelRequests: [] }, runRecord())).toEqual([]);
    expect(
      only({ modelRequests: [] }, runRecord({ modelRequests: [request(["web_search"])] })),
    ).toEqual({
      path: "expect.model_requests",
      message: "expected 0 model requests, got 1 (tools advertised: [web_search])",
      expected: 0,
      actual: 1,
    });
  });

  it("fails when fewer requests were made than listed", () => {
    expect(
      only({ modelRequests: [{}, {}] }, runRecord({ modelRequests: [request([])] })).message,
    ).toBe("expected 2 model requests, got 1 (tools advertised: [])");
    expect(only({ modelRequests: [{}] }, runRecord()).message).toBe(
      "expected 1 model request, but none was made",
    );
  });

  it("an entry with no keys checks only that the request was made", () => {
    expect(
      checkExpectations({ modelRequests: [{}] }, runRecord({ modelRequests: [request(["a"], 9)] })),
    ).toEqual([]);
  });

  it("tools passes on the same wire names in the same order", () => {
    const run = runRecord({ modelRequests: [request(["web_fetch", "web_search"])] });
    expect(
      checkExpectations({ modelRequests: [{ tools: ["web_fetch", "web_search"] }] }, run),
    ).toEqual([]);
  });

  it("tools fails on another order, a missing or an extra tool", () => {
    const run = runRecord({ modelRequests: [request(["web_fetch", "web_search"])] });
    expect(only({ modelRequests: [{ tools: ["web_search", "web_fetch"] }] }, run)).toEqual({
      path: "expect.model_requests[0].tools",
      message: "expected the tools [web_search, web_fetch] advertised, got [web_fetch, web_search]",
      expected: ["web_search", "web_fetch"],
      actual: ["web_fetch", "web_search"],
    });
    expect(paths({ modelRequests: [{ tools: ["web_fetch"] }] }, run)).toEqual([
      "expect.model_requests[0].tools",
    ]);
    expect(paths({ modelRequests: [{ tools: [] }] }, run)).toEqual([
      "expect.model_requests[0].tools",
    ]);
  });

  it("checks each request in order", () => {
    const run = runRecord({ modelRequests: [request(["a"]), request([])] });
    expect(checkExpectations({ modelRequests: [{ tools: ["a"] }, { tools: [] }] }, run)).toEqual(
      [],
    );
    expect(paths({ modelRequests: [{ tools: [] }, { tools: ["a"] }] }, run)).toEqual([
      "expect.model_requests[0].tools",
      "expect.model_requests[1].tools",
    ]);
  });

  it("messages passes on the same count and fails otherwise", () => {
    const run = runRecord({ modelRequests: [request([], 3)] });
    expect(checkExpectations({ modelRequests: [{ messages: 3 }] }, run)).toEqual([]);
    expect(only({ modelRequests: [{ messages: 1 }] }, run)).toEqual({
      path: "expect.model_requests[0].messages",
      message: "expected 1 message record sent, got 3",
      expected: 1,
      actual: 3,
    });
  });

  it("tool_definitions passes on the keys given", () => {
    const run = runRecord({ modelRequests: [request(["grab"], 1, [grab])] });
    expect(
      checkExpectations({ modelRequests: [{ toolDefinitions: [{ name: "grab" }] }] }, run),
    ).toEqual([]);
    expect(checkExpectations({ modelRequests: [{ toolDefinitions: [grab] }] }, run)).toEqual([]);
  });

  it("tool_definitions fails on another count", () => {
    const run = runRecord({ modelRequests: [request(["grab"], 1, [grab])] });
    expect(only({ modelRequests: [{ toolDefinitions: [] }] }, run)).toEqual({
      path: "expect.model_requests[0].tool_definitions",
      message: "expected 0 tool definitions, got 1 (grab)",
      expected: 0,
      actual: 1,
    });
  });

  it("tool_definitions name and description fail when they differ", () => {
    const run = runRecord({ modelRequests: [request(["grab"], 1, [grab])] });
    expect(only({ modelRequests: [{ toolDefinitions: [{ name: "grip" }] }] }, run)).toEqual({
      path: "expect.model_requests[0].tool_definitions[0].name",
      message: 'expected the tool name "grip", got "grab"',
      expected: "grip",
      actual: "grab",
    });
    expect(
      paths({ modelRequests: [{ toolDefinitions: [{ description: "Grab a value." }] }] }, run),
    ).toEqual(["expect.model_requests[0].tool_definitions[0].description"]);
  });

  it("tool_definitions parameters compare as JSON data, key order aside", () => {
    const run = runRecord({ modelRequests: [request(["grab"], 1, [grab])] });
    const reordered = {
      required: ["value"],
      properties: { value: { type: "string" } },
      type: "object",
    };
    expect(
      checkExpectations({ modelRequests: [{ toolDefinitions: [{ parameters: reordered }] }] }, run),
    ).toEqual([]);
    const wrong = { ...reordered, properties: { value: { type: "number" } } };
    const mismatch = only({ modelRequests: [{ toolDefinitions: [{ parameters: wrong }] }] }, run);
    expect(mismatch.path).toBe("expect.model_requests[0].tool_definitions[0].parameters");
    expect(mismatch.message).toBe(
      'parameters differs at parameters.properties.value.type: expected "number", got "string"',
    );
    expect(mismatch.diff?.filter((line) => line.op !== "same")).toEqual([
      { op: "removed", text: '      "type": "number"' },
      { op: "added", text: '      "type": "string"' },
    ]);
  });
});

describe("events", () => {
  const events: EventExpectation[] = [
    { type: "model_turn_started", turn: 1 },
    {
      type: "tool_result",
      tool_call_id: "call_1",
      alias: "web_search",
      tool: "web/search",
      trusted: false,
    },
    { type: "model_turn_completed", turn: 1 },
    {
      type: "tool_result",
      tool_call_id: "call_2",
      alias: "web_fetch",
      tool: "web/fetch",
      trusted: false,
    },
  ];
  const run = runRecord({ events });

  it("passes on a subset of keys, with other events between", () => {
    expect(
      checkExpectations(
        {
          events: [
            { type: "tool_result", alias: "web_search" },
            { type: "tool_result", alias: "web_fetch" },
          ],
        },
        run,
      ),
    ).toEqual([]);
  });

  it("passes on every key given, values JSON-equal", () => {
    const first = events[1];
    if (first === undefined) throw new Error("fixture");
    expect(checkExpectations({ events: [{ ...first }] }, run)).toEqual([]);
  });

  it("fails when the events occur in another order", () => {
    const mismatch = only(
      {
        events: [
          { type: "tool_result", alias: "web_fetch" },
          { type: "tool_result", alias: "web_search" },
        ],
      },
      run,
    );
    expect(mismatch).toEqual({
      path: "expect.events[1]",
      message:
        "the run's events[1] matches, but it comes before events[3], which matched expect.events[0]; the expected events must occur in this order",
      expected: { type: "tool_result", alias: "web_search" },
      actual: events[1],
    });
  });

  it("fails when no event has that type, listing the types seen", () => {
    expect(only({ events: [{ type: "tool_call_failed" }] }, run).message).toBe(
      'the run emitted no "tool_call_failed" event (event types seen: "model_turn_started", "tool_result", "model_turn_completed")',
    );
  });

  it("fails when a key differs, naming the closest event and the keys", () => {
    const mismatch = only(
      { events: [{ type: "tool_result", alias: "web_search", trusted: true }] },
      run,
    );
    expect(mismatch.message).toBe(
      'no "tool_result" event has all the expected keys; the closest is the run\'s events[1]: trusted: expected true, got false',
    );
    expect(mismatch.actual).toEqual(events[1]);
  });

  it("fails when a key is missing from the event", () => {
    expect(only({ events: [{ type: "model_turn_completed", content: "x" }] }, run).message).toBe(
      'no "model_turn_completed" event has all the expected keys; the closest is the run\'s events[2]: content: expected "x", got (none)',
    );
  });

  it('compares values as JSON data: 1 is not "1"', () => {
    expect(paths({ events: [{ type: "model_turn_completed", turn: "1" }] }, run)).toEqual([
      "expect.events[0]",
    ]);
    expect(checkExpectations({ events: [{ type: "model_turn_completed", turn: 1 }] }, run)).toEqual(
      [],
    );
  });

  it("compares nested values deeply", () => {
    const nested = runRecord({ events: [{ type: "x", data: { a: [1, { b: 2 }] } }] });
    expect(
      checkExpectations({ events: [{ type: "x", data: { a: [1, { b: 2 }] } }] }, nested),
    ).toEqual([]);
    expect(paths({ events: [{ type: "x", data: { a: [1, { b: 3 }] } }] }, nested)).toEqual([
      "expect.events[0]",
    ]);
    expect(paths({ events: [{ type: "x", data: { a: [1] } }] }, nested)).toEqual([
      "expect.events[0]",
    ]);
  });

  it("matches each run event at most once", () => {
    const twice = { events: [{ type: "model_turn_completed" }, { type: "model_turn_completed" }] };
    expect(paths(twice, run)).toEqual(["expect.events[1]"]);
    const two = runRecord({
      events: [{ type: "model_turn_completed" }, { type: "model_turn_completed" }],
    });
    expect(checkExpectations(twice, two)).toEqual([]);
  });

  it("says after which event it looked", () => {
    const mismatch = only(
      {
        events: [
          { type: "tool_result", alias: "web_fetch" },
          { type: "tool_result", alias: "web_other" },
        ],
      },
      run,
    );
    expect(mismatch.message).toBe(
      'no "tool_result" event after events[3] has all the expected keys; the closest is the run\'s events[1]: alias: expected "web_other", got "web_search"',
    );
  });

  it("replaces NONCE in expected values", () => {
    const wrapped = runRecord({
      events: [{ type: "tool_result", content: `<u_${TEST_NONCE}>` }],
      nonce: TEST_NONCE,
    });
    expect(
      checkExpectations({ events: [{ type: "tool_result", content: "<u_NONCE>" }] }, wrapped),
    ).toEqual([]);
  });
});

describe("store", () => {
  it("passes on exactly these files", () => {
    const run = runRecord({ store: { "b.txt": "2", "a.txt": "1" } });
    expect(checkExpectations({ store: { "a.txt": "1", "b.txt": "2" } }, run)).toEqual([]);
  });

  it("{} passes on an empty store and fails on any file", () => {
    expect(checkExpectations({ store: {} }, runRecord())).toEqual([]);
    expect(only({ store: {} }, runRecord({ store: { "after.txt": "x" } }))).toEqual({
      path: 'expect.store["after.txt"]',
      message:
        "the store holds a file the case does not list (expect.store lists every file after the run)",
      expected: undefined,
      actual: "x",
    });
  });

  it("fails on a missing file", () => {
    expect(only({ store: { "note.md": "hello" } }, runRecord())).toEqual({
      path: 'expect.store["note.md"]',
      message: "the file is missing from the store after the run",
      expected: "hello",
      actual: undefined,
    });
  });

  it("fails on other content, with a diff for several lines", () => {
    const mismatch = only(
      { store: { "rows.jsonl": "a\nb\n" } },
      runRecord({ store: { "rows.jsonl": "a\nc\n" } }),
    );
    expect(mismatch.message).toBe('the content of "rows.jsonl" differs at line 2, column 1');
    expect(mismatch.diff).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: "b" },
      { op: "added", text: "c" },
      { op: "same", text: "" },
    ]);
  });

  it("replaces NONCE in contents", () => {
    const run = runRecord({ store: { "n.txt": TEST_NONCE }, nonce: TEST_NONCE });
    expect(checkExpectations({ store: { "n.txt": "NONCE" } }, run)).toEqual([]);
  });
});

describe("var", () => {
  it("passes on JSON-equal data, key order aside", () => {
    const run = runRecord({ var: { b: [1, 2], a: { kept: "yes", none: null } } });
    expect(checkExpectations({ var: { a: { none: null, kept: "yes" }, b: [1, 2] } }, run)).toEqual(
      [],
    );
  });

  it("fails at the first difference, naming where", () => {
    const mismatch = only({ var: { items: [1, 2, 3] } }, runRecord({ var: { items: [1, 2, 4] } }));
    expect(mismatch.message).toBe("var differs at var.items[2]: expected 3, got 4");
    expect(mismatch.expected).toEqual({ items: [1, 2, 3] });
    expect(mismatch.actual).toEqual({ items: [1, 2, 4] });
  });

  it("fails on an extra key in the actual data", () => {
    expect(only({ var: { a: 1 } }, runRecord({ var: { a: 1, b: 2 } })).message).toBe(
      "var differs at var.b: expected (none), got 2",
    );
  });

  it("fails on a missing list item", () => {
    expect(only({ var: [1, 2] }, runRecord({ var: [1] })).message).toBe(
      "var differs at var[1]: expected 2, got (none)",
    );
  });

  it("tells {} from []", () => {
    expect(only({ var: {} }, runRecord({ var: [] })).message).toBe(
      "var differs: expected {}, got []",
    );
  });

  it("cannot tell an integer from a float: 1 equals 1.0", () => {
    expect(checkExpectations({ var: { n: 1 } }, runRecord({ var: { n: 1.0 } }))).toEqual([]);
    expect(paths({ var: { n: 1 } }, runRecord({ var: { n: 1.5 } }))).toEqual(["expect.var"]);
  });

  it("null expects JSON null", () => {
    expect(checkExpectations({ var: null }, runRecord({ var: null }))).toEqual([]);
    expect(paths({ var: null }, runRecord({ var: {} }))).toEqual(["expect.var"]);
  });

  it("fails when var was not read back", () => {
    expect(only({ var: {} }, runRecord({ var: undefined })).message).toBe(
      "var was not read back at the end of the run",
    );
  });

  it("gives a diff of the pretty JSON for structured data", () => {
    const mismatch = only({ var: { a: 1, b: 2 } }, runRecord({ var: { a: 1, b: 3 } }));
    expect(mismatch.diff).toEqual([
      { op: "same", text: "{" },
      { op: "same", text: '  "a": 1,' },
      { op: "removed", text: '  "b": 2' },
      { op: "added", text: '  "b": 3' },
      { op: "same", text: "}" },
    ]);
  });

  it("replaces NONCE in strings", () => {
    const run = runRecord({ var: { tag: `t_${TEST_NONCE}` }, nonce: TEST_NONCE });
    expect(checkExpectations({ var: { tag: "t_NONCE" } }, run)).toEqual([]);
  });
});

describe("several keys", () => {
  it("reports mismatches in the fixed key order", () => {
    const run = failedRun("Lua", "boom");
    expect(
      paths(
        { var: 1, store: { a: "" }, result: "x", error: { kind: "Tool" }, outcome: "succeeded" },
        run,
      ),
    ).toEqual([
      "expect.outcome",
      "expect.error.kind",
      "expect.result",
      "expect.store.a",
      "expect.var",
    ]);
  });
});
