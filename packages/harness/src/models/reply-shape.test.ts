import { describe, expect, it } from "vitest";
import { checkReplyShape } from "./reply-shape";

const GOOD = {
  text: "done",
  toolCalls: [{ id: "c1", name: "grab", arguments: { value: [1, "a", null, true] } }],
  finishReason: "tool_calls",
  usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 4, reasoningTokens: 1 },
};

function problemOf(value: unknown): string {
  const checked = checkReplyShape(value);
  if (checked.ok) throw new Error("expected a problem");
  return checked.problem;
}

describe("checkReplyShape", () => {
  it("answers a fresh copy with the known fields only", () => {
    const checked = checkReplyShape({ ...GOOD, raw: { secret: "key" } });
    expect(checked).toEqual({ ok: true, reply: GOOD });
    expect(checked.ok && checked.reply).not.toBe(GOOD);
    expect(checked.ok && Object.keys(checked.reply)).toEqual([
      "text",
      "toolCalls",
      "finishReason",
      "usage",
    ]);
  });

  it("keeps arguments that are JSON data but not an object, for the Engine to judge", () => {
    const reply = { ...GOOD, toolCalls: [{ id: "", name: "", arguments: "not an object" }] };
    expect(checkReplyShape(reply).ok).toBe(true);
  });

  it("leaves out optional usage counts the provider did not give", () => {
    const checked = checkReplyShape({ ...GOOD, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(checked.ok && checked.reply.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it("names what is wrong with the reply's fields", () => {
    expect(problemOf(null)).toBe("the reply must be an object, got null");
    expect(problemOf("hi")).toBe("the reply must be an object, got string");
    expect(problemOf({ ...GOOD, text: undefined })).toBe("text must be a string, got undefined");
    expect(problemOf({ ...GOOD, toolCalls: {} })).toBe("toolCalls must be an array, got object");
    expect(problemOf({ ...GOOD, finishReason: 1 })).toBe(
      "finishReason must be a string, got number",
    );
    expect(problemOf({ ...GOOD, usage: [] })).toBe("usage must be an object, got array");
  });

  it("wants whole token counts of at least 0", () => {
    expect(problemOf({ ...GOOD, usage: { inputTokens: -1, outputTokens: 0 } })).toBe(
      "usage.inputTokens must be a whole number of at least 0, got -1",
    );
    expect(problemOf({ ...GOOD, usage: { inputTokens: 1, outputTokens: 1.5 } })).toBe(
      "usage.outputTokens must be a whole number of at least 0, got 1.5",
    );
    expect(
      problemOf({ ...GOOD, usage: { inputTokens: 1, outputTokens: 1, reasoningTokens: "2" } }),
    ).toBe("usage.reasoningTokens must be a whole number of at least 0, got 2");
  });

  it("checks every tool call's id, name and arguments", () => {
    const withCall = (call: unknown) => ({ ...GOOD, toolCalls: [GOOD.toolCalls[0], call] });
    expect(problemOf(withCall("c2"))).toBe("toolCalls[1] must be an object, got string");
    expect(problemOf(withCall({ id: 2, name: "x", arguments: {} }))).toBe(
      "toolCalls[1].id must be a string, got number",
    );
    expect(problemOf(withCall({ id: "c2", arguments: {} }))).toBe(
      "toolCalls[1].name must be a string, got undefined",
    );
    expect(problemOf(withCall({ id: "c2", name: "x" }))).toBe("toolCalls[1].arguments is missing");
    expect(problemOf(withCall({ id: "c2", name: "x", arguments: { n: Number.NaN } }))).toBe(
      "toolCalls[1].arguments must be JSON data: NaN is not a JSON number",
    );
    expect(problemOf(withCall({ id: "c2", name: "x", arguments: { when: new Date(0) } }))).toBe(
      "toolCalls[1].arguments must be JSON data: an object that is not a plain object is not JSON data",
    );
    expect(problemOf(withCall({ id: "c2", name: "x", arguments: [undefined] }))).toBe(
      "toolCalls[1].arguments must be JSON data: undefined is not JSON data",
    );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(problemOf(withCall({ id: "c2", name: "x", arguments: cycle }))).toBe(
      "toolCalls[1].arguments must be JSON data: it holds a cycle",
    );
  });

  it("accepts the same object twice in arguments when it is not a cycle", () => {
    const shared = { a: 1 };
    const reply = {
      ...GOOD,
      toolCalls: [{ id: "c", name: "x", arguments: { one: shared, two: shared } }],
    };
    expect(checkReplyShape(reply).ok).toBe(true);
  });

  it("refuses a reply that cannot be read", () => {
    const hostile = {
      ...GOOD,
      get text(): string {
        throw new Error("getter blew up");
      },
    };
    expect(problemOf(hostile)).toBe("the reply cannot be read (getter blew up)");
  });
});
