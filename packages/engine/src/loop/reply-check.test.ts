import type { ModelToolCall } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { checkReplyCalls } from "./reply-check";

const call = (id: string, name: string, args: unknown): ModelToolCall =>
  ({ id, name, arguments: args }) as ModelToolCall;

describe("checkReplyCalls", () => {
  it("passes calls with ids, names and object arguments, in order", () => {
    const calls = [call("c1", "grab", { value: "a" }), call("c2", "web_search", {})];
    expect(checkReplyCalls(calls)).toEqual({ ok: true, calls });
    expect(checkReplyCalls([])).toEqual({ ok: true, calls: [] });
  });

  it("refuses arguments that are not a JSON object, naming the call", () => {
    for (const args of [[1, 2, 3], "{}", null, 3]) {
      expect(checkReplyCalls([call("c1", "grab", {}), call("c2", "grab", args)])).toEqual({
        ok: false,
        message: 'tool call arguments were not a JSON object (call "c2" to "grab")',
      });
    }
  });

  it("refuses a blank id by its place, a blank name by its id", () => {
    expect(checkReplyCalls([call("a", "x", {}), call("b", "x", {}), call(" ", "x", {})])).toEqual({
      ok: false,
      message: "tool call id is blank (call 3 of the reply)",
    });
    expect(checkReplyCalls([call("c1", "", {})])).toEqual({
      ok: false,
      message: 'tool call name is blank (call "c1")',
    });
  });

  it("refuses an id that repeats an earlier call's", () => {
    expect(checkReplyCalls([call("dup", "grab", {}), call("dup", "grab", {})])).toEqual({
      ok: false,
      message: `tool call id "dup" repeats another call's id in the same reply`,
    });
  });

  it("reports the first problem in call order", () => {
    expect(checkReplyCalls([call("c1", "grab", []), call("", "grab", {})])).toEqual({
      ok: false,
      message: 'tool call arguments were not a JSON object (call "c1" to "grab")',
    });
  });

  it("quotes ids and names with escapes", () => {
    expect(checkReplyCalls([call('a"b', "x\ny", 1)])).toEqual({
      ok: false,
      message: 'tool call arguments were not a JSON object (call "a\\"b" to "x\\ny")',
    });
  });
});
