import { describe, expect, it } from "vitest";
import { compareBytewise, debugList, debugQuote, sortNames } from "./debug-quote";

describe("debugQuote", () => {
  it("quotes plain names as they are", () => {
    expect(debugQuote("rogue")).toBe('"rogue"');
    expect(debugQuote("web/fetch")).toBe('"web/fetch"');
    expect(debugQuote("")).toBe('""');
  });

  it("escapes quotes, backslashes and control characters", () => {
    expect(debugQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(debugQuote("a\nb\rc\td\0e")).toBe('"a\\nb\\rc\\td\\0e"');
    expect(debugQuote("\u001b[1m\u007f")).toBe('"\\u{1b}[1m\\u{7f}"');
  });

  it("keeps non-ASCII text and single quotes", () => {
    expect(debugQuote("é'ü")).toBe('"é\'ü"');
  });
});

describe("debugList", () => {
  it("prints a bracketed list of quoted names", () => {
    expect(debugList(["user-input/ask", "web/fetch", "web/search"])).toBe(
      '["user-input/ask", "web/fetch", "web/search"]',
    );
    expect(debugList([])).toBe("[]");
  });
});

describe("sortNames", () => {
  it("sorts bytewise, not by UTF-16 code units", () => {
    expect(sortNames(["web/search", "user-input/ask", "web/fetch"])).toEqual([
      "user-input/ask",
      "web/fetch",
      "web/search",
    ]);
    expect(sortNames(["b", "B", "a", "_"])).toEqual(["B", "_", "a", "b"]);
    // U+FF5E sorts before U+1F600 in UTF-8 (ef bd 9e < f0 9f 98 80), after it in UTF-16.
    expect(sortNames(["\u{1f600}", "\uff5e"])).toEqual(["\uff5e", "\u{1f600}"]);
  });

  it("orders a prefix first", () => {
    expect(compareBytewise("web", "web/fetch")).toBeLessThan(0);
    expect(compareBytewise("same", "same")).toBe(0);
  });
});
