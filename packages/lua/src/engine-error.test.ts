import { describe, expect, it } from "vitest";
import { argumentError, EngineError, ERROR_KINDS, isErrorKind, quotaError } from "./engine-error";

describe("EngineError", () => {
  it("names thirteen kinds", () => {
    expect(ERROR_KINDS).toHaveLength(13);
    expect(isErrorKind("context_exhausted")).toBe(true);
    expect(isErrorKind("Lua")).toBe(false);
    expect(isErrorKind(undefined)).toBe(false);
  });

  it("uses the kind as the message when the message is empty", () => {
    const error = new EngineError("tool_loop_exhausted", "");
    expect(error.message).toBe("tool_loop_exhausted");
    expect(error.fields).toEqual({});
    expect(error.quota).toBe(false);
    expect(error.name).toBe("EngineError");
  });

  it("keeps fields, and marks quota refusals", () => {
    const store = new EngineError("store", "a.md: not found", {
      reason: "not_found",
      path: "a.md",
    });
    expect(store.fields).toEqual({ reason: "not_found", path: "a.md" });
    const quota = quotaError("call recursion exceeded cap of 8");
    expect([quota.kind, quota.message, quota.quota]).toEqual([
      "lua",
      "call recursion exceeded cap of 8",
      true,
    ]);
    const argument = argumentError("models.infer takes (prompt)");
    expect([argument.kind, argument.message, argument.quota]).toEqual([
      "lua",
      "models.infer takes (prompt)",
      false,
    ]);
  });
});
