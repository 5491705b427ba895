import { describe, expect, it } from "vitest";
import { RUNTIME_ERROR_PREFIX, runtimeError, runtimeErrorMessage } from "./runtime-error";

describe("runtimeError", () => {
  it("builds a guard's refusal with the runtime error prefix", () => {
    expect(RUNTIME_ERROR_PREFIX).toBe("runtime error: ");
    expect(runtimeErrorMessage("sys is read-only; cannot set 'extra'")).toBe(
      "runtime error: sys is read-only; cannot set 'extra'",
    );
    const error = runtimeError("unknown sys field 'nothing'");
    expect([error.kind, error.message]).toEqual([
      "lua",
      "runtime error: unknown sys field 'nothing'",
    ]);
  });
});
