import { describe, expect, it } from "vitest";
import { EngineError, quotaError } from "../lua";
import { runErrorKindOf } from "./run-error-kind";

describe("runErrorKindOf", () => {
  it("maps each Engine error kind to its run error kind", () => {
    const cases: readonly (readonly [EngineError, string | undefined])[] = [
      [new EngineError("lua", "x"), "Lua"],
      [new EngineError("store", "a: not found", { reason: "not_found", path: "a" }), "Vfs"],
      [new EngineError("context_exhausted", "context window exceeded"), "ContextExhausted"],
      [new EngineError("empty_model_reply", "empty model reply"), "Completion"],
      [new EngineError("tool_loop_exhausted", "tool-call loop did not converge"), "Tool"],
      [new EngineError("tool", "tool call failure: web_fetch: no page"), "Tool"],
      [new EngineError("out_of_scope_tool", "rogue"), "Tool"],
      [new EngineError("unbound_tool", "missing"), "Tool"],
      [new EngineError("tasks_live", "tasks still live"), "Lua"],
      [new EngineError("task_not_owned", "not yours"), "Lua"],
      [new EngineError("task_consumed", "already joined"), "Lua"],
      [new EngineError("internal", "model is down"), "Lua"],
      [quotaError("call recursion exceeded cap of 8"), "Quota"],
      [new EngineError("cancelled", "cancelled", { task: "1.1" }), undefined],
    ];
    expect(cases.map(([error]) => runErrorKindOf(error))).toEqual(cases.map(([, kind]) => kind));
  });

  it("uses the run error kind a value carries: a model round's internal ends the run as Completion", () => {
    const round = new EngineError("internal", "model is down", {}, { runErrorKind: "Completion" });
    expect(runErrorKindOf(round)).toBe("Completion");
    const unknown = new EngineError("internal", "x", {}, { runErrorKind: "NoSuchKind" });
    expect(runErrorKindOf(unknown)).toBe("Lua");
  });

  it("reads the quota mark only on a lua value", () => {
    const marked = new EngineError("store", "a: not found", {}, { quota: true });
    expect(runErrorKindOf(marked)).toBe("Vfs");
  });
});
