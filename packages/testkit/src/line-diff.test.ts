import { describe, expect, it } from "vitest";
import { firstDifference, lineDiff, renderLineDiff, showControls, splitLines } from "./line-diff";

describe("lineDiff", () => {
  it("marks equal texts as unchanged", () => {
    expect(lineDiff("a\nb", "a\nb")).toEqual([
      { op: "same", text: "a" },
      { op: "same", text: "b" },
    ]);
  });

  it("finds a changed line between common ones", () => {
    expect(lineDiff("a\nb\nc", "a\nx\nc")).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: "b" },
      { op: "added", text: "x" },
      { op: "same", text: "c" },
    ]);
  });

  it("keeps the longest common subsequence across insertions and deletions", () => {
    expect(lineDiff(["a", "b", "c", "d", "e"], ["b", "c", "x", "e", "f"])).toEqual([
      { op: "removed", text: "a" },
      { op: "same", text: "b" },
      { op: "same", text: "c" },
      { op: "removed", text: "d" },
      { op: "added", text: "x" },
      { op: "same", text: "e" },
      { op: "added", text: "f" },
    ]);
  });

  it("handles empty sides", () => {
    expect(lineDiff([], ["a"])).toEqual([{ op: "added", text: "a" }]);
    expect(lineDiff(["a"], [])).toEqual([{ op: "removed", text: "a" }]);
    expect(lineDiff([], [])).toEqual([]);
  });

  it("shows a missing final newline as a removed empty line", () => {
    expect(lineDiff("a\n", "a")).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: "" },
    ]);
  });

  it("gives up looking for common lines in a huge changed middle, still correct", () => {
    const a = Array.from({ length: 2100 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 2100 }, (_, i) => `b${i}`);
    const diff = lineDiff(["head", ...a, "tail"], ["head", ...b, "tail"]);
    expect(diff).toHaveLength(4202);
    expect(diff[0]).toEqual({ op: "same", text: "head" });
    expect(diff[1]).toEqual({ op: "removed", text: "a0" });
    expect(diff[2101]).toEqual({ op: "added", text: "b0" });
    expect(diff[4201]).toEqual({ op: "same", text: "tail" });
  });
});

describe("renderLineDiff", () => {
  it("prefixes lines and folds unchanged runs beyond the context", () => {
    const expected = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
    const actual = ["1", "2", "3", "4", "X", "6", "7", "8", "9"];
    expect(renderLineDiff(lineDiff(expected, actual), { context: 1 })).toEqual([
      "  ... 3 unchanged lines",
      "  4",
      "- 5",
      "+ X",
      "  6",
      "  ... 3 unchanged lines",
    ]);
  });

  it("keeps three lines of context by default and says 1 line", () => {
    const expected = ["1", "2", "3", "4", "5"];
    const actual = ["1", "2", "3", "4", "x"];
    expect(renderLineDiff(lineDiff(expected, actual))).toEqual([
      "  ... 1 unchanged line",
      "  2",
      "  3",
      "  4",
      "- 5",
      "+ x",
    ]);
  });

  it("shows control characters", () => {
    expect(renderLineDiff([{ op: "added", text: "a\tb\r" }])).toEqual(["+ a\\tb\\r"]);
  });
});

describe("showControls", () => {
  it("escapes tabs, carriage returns and other control characters only", () => {
    expect(showControls("é\t\u001b[0m\u007f x")).toBe("é\\t\\u001b[0m\\u007f x");
  });
});

describe("splitLines", () => {
  it("splits at \\n only", () => {
    expect(splitLines("a\r\nb\n")).toEqual(["a\r", "b", ""]);
  });
});

describe("firstDifference", () => {
  it("gives line and column of the first differing character", () => {
    expect(firstDifference("ab\ncd", "ab\nce")).toEqual({ line: 2, column: 2 });
    expect(firstDifference("abc", "abd")).toEqual({ line: 1, column: 3 });
  });

  it("points past the end of the shorter text", () => {
    expect(firstDifference("ab", "ab\n")).toEqual({ line: 1, column: 3 });
    expect(firstDifference("", "x")).toEqual({ line: 1, column: 1 });
  });

  it("counts columns in code points", () => {
    expect(firstDifference("😀a", "😀b")).toEqual({ line: 1, column: 2 });
  });

  it("is undefined for equal texts", () => {
    expect(firstDifference("x", "x")).toBeUndefined();
  });
});
