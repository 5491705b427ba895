import { describe, expect, it } from "vitest";
import { countOccurrences, replaceAnchor } from "./anchor";

describe("countOccurrences", () => {
  it("counts every position, overlapping ones included", () => {
    expect(countOccurrences("abc", "x")).toBe(0);
    expect(countOccurrences("abcabc", "abc")).toBe(2);
    expect(countOccurrences("aaa", "aa")).toBe(2);
    expect(countOccurrences("aaaa", "a")).toBe(4);
    expect(countOccurrences("😀😀", "😀")).toBe(2);
  });
});

describe("replaceAnchor", () => {
  it("replaces the one occurrence", () => {
    expect(replaceAnchor("one two three", "two", "2")).toEqual({ ok: true, text: "one 2 three" });
    expect(replaceAnchor("one two", "one ", "")).toEqual({ ok: true, text: "two" });
    expect(replaceAnchor("x", "x", "$&$1")).toEqual({ ok: true, text: "$&$1" });
  });

  it("reports 0 or the count otherwise", () => {
    expect(replaceAnchor("abc", "d", "e")).toEqual({ ok: false, count: 0 });
    expect(replaceAnchor("abab", "ab", "e")).toEqual({ ok: false, count: 2 });
    expect(replaceAnchor("aaa", "aa", "e")).toEqual({ ok: false, count: 2 });
  });
});
