import { describe, expect, it } from "vitest";
import { fail, ok } from "./result";

describe("NameResult helpers", () => {
  it("ok wraps a value", () => {
    expect(ok(["web"])).toEqual({ ok: true, value: ["web"] });
  });

  it("fail wraps a reason", () => {
    expect(fail("segments must not be empty")).toEqual({
      ok: false,
      reason: "segments must not be empty",
    });
  });
});
