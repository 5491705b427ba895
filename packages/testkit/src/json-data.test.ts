import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  displayValue,
  jsonDifference,
  jsonEqual,
  jsonSubsetDifferences,
} from "./json-data";

describe("jsonEqual", () => {
  it("compares mappings without regard to key order", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
  });

  it("tells apart types that JavaScript would coerce", () => {
    expect(jsonEqual(1, "1")).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(false, 0)).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
  });

  it("compares lists in order", () => {
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  });

  it("treats a key holding undefined as absent", () => {
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  });
});

describe("jsonDifference", () => {
  it("finds the first difference depth first", () => {
    expect(jsonDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toEqual({
      path: ["a", "b", 1],
      expected: 2,
      actual: 3,
    });
  });

  it("reports a missing and an extra key", () => {
    expect(jsonDifference({ a: 1, b: 2 }, { a: 1 })).toEqual({
      path: ["b"],
      expected: 2,
      actual: undefined,
    });
    expect(jsonDifference({ a: 1 }, { a: 1, z: 0 })).toEqual({
      path: ["z"],
      expected: undefined,
      actual: 0,
    });
  });

  it("reports a shorter and a longer list at the first extra position", () => {
    expect(jsonDifference([1, 2], [1])).toEqual({ path: [1], expected: 2, actual: undefined });
    expect(jsonDifference([1], [1, 2])).toEqual({ path: [1], expected: undefined, actual: 2 });
  });
});

describe("jsonSubsetDifferences", () => {
  it("lists the expected keys that are missing or different, ignoring others", () => {
    expect(jsonSubsetDifferences({ a: 1, b: [1], c: "x" }, { a: 1, b: [2], d: 0 })).toEqual([
      "b",
      "c",
    ]);
    expect(jsonSubsetDifferences({}, { a: 1 })).toEqual([]);
  });
});

describe("canonicalJson and displayValue", () => {
  it("sorts keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } }, 0)).toBe('{"a":{"c":2,"d":1},"b":1}');
  });

  it("shows values on one line, undefined as (none)", () => {
    expect(displayValue("a\nb")).toBe('"a\\nb"');
    expect(displayValue({ a: [1] })).toBe('{"a":[1]}');
    expect(displayValue(undefined)).toBe("(none)");
    expect(displayValue(null)).toBe("null");
    expect(displayValue(10n)).toBe("10n");
  });
});
