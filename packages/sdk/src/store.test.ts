import { describe, expect, it } from "vitest";
import { STORE_ERROR_REASONS, StoreError } from "./store";
import { ToolFailure } from "./tool-failure";

describe("StoreError", () => {
  it("carries the failure's reason, path and message", () => {
    const error = new StoreError({
      reason: "not_found",
      path: "missing.txt",
      message: "missing.txt: not found",
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("StoreError");
    expect(error.message).toBe("missing.txt: not found");
    expect(error.reason).toBe("not_found");
    expect(error.path).toBe("missing.txt");
    expect("count" in error).toBe(false);
    expect("validUpTo" in error).toBe(false);
  });

  it("keeps count for anchor failures, including a count of 0", () => {
    const error = new StoreError({
      reason: "anchor_not_found",
      path: "a.md",
      message: "a.md: the anchor text does not occur in the file",
      count: 0,
    });
    expect(error.count).toBe(0);
    expect("validUpTo" in error).toBe(false);
  });

  it("keeps validUpTo for UTF-8 failures, including 0", () => {
    const error = new StoreError({
      reason: "invalid_utf8",
      path: "a.bin",
      message: "a.bin: the file is not valid UTF-8 (valid up to byte 0)",
      validUpTo: 0,
    });
    expect(error.validUpTo).toBe(0);
    expect("count" in error).toBe(false);
  });
});

describe("STORE_ERROR_REASONS", () => {
  it("lists the nine reasons once each", () => {
    expect(STORE_ERROR_REASONS).toEqual([
      "not_found",
      "invalid_path",
      "invalid_pattern",
      "invalid_utf8",
      "anchor_not_found",
      "anchor_not_unique",
      "too_large",
      "not_a_file",
      "io_error",
    ]);
  });
});

describe("StoreError.isInstance", () => {
  it("accepts a StoreError", () => {
    const error = new StoreError({ reason: "io_error", path: "", message: "x" });
    expect(StoreError.isInstance(error)).toBe(true);
  });

  it("accepts a StoreError from another copy of the package, by its brand", () => {
    const copy = Object.assign(new Error("a: not found"), {
      name: "StoreError",
      reason: "not_found",
      path: "a",
      [Symbol.for("runvil.StoreError")]: true,
    });
    expect(StoreError.isInstance(copy)).toBe(true);
  });

  it("refuses plain errors, look-alikes without the brand, other failures and non-errors", () => {
    expect(StoreError.isInstance(new Error("a: not found"))).toBe(false);
    const lookAlike = Object.assign(new Error("a: not found"), {
      name: "StoreError",
      reason: "not_found",
      path: "a",
    });
    expect(StoreError.isInstance(lookAlike)).toBe(false);
    expect(StoreError.isInstance(new ToolFailure("a: not found"))).toBe(false);
    expect(StoreError.isInstance({ name: "StoreError", reason: "not_found", path: "a" })).toBe(
      false,
    );
    expect(StoreError.isInstance(undefined)).toBe(false);
  });
});
