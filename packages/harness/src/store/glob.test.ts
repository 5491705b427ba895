import { describe, expect, it } from "vitest";
import { storeFailure } from "../testing/store-failure";
import { compileGlob } from "./glob";

const matches = (pattern: string, path: string): boolean =>
  compileGlob(pattern).matches(path.split("/"));

describe("compileGlob matching", () => {
  const table: [string, string, boolean][] = [
    ["*", "a.md", true],
    ["*", "a/b.md", false],
    ["*.md", ".md", true],
    ["*.md", "a.mdx", false],
    ["a*b*c", "abc", true],
    ["a*b*c", "a-b-b-c", true],
    ["a*b*c", "a-c", false],
    ["?", "é", true],
    ["?", "😀", true],
    ["??", "😀", false],
    ["?", "", false],
    ["[a-c]x", "bx", true],
    ["[a-c]x", "dx", false],
    ["[!a-c]x", "dx", true],
    ["[^a-c]x", "ax", false],
    ["[]]", "]", true],
    ["[!]]", "]", false],
    ["[!]]", "x", true],
    ["[a-]", "-", true],
    ["[-a]", "-", true],
    ["[\\]]", "]", true],
    ["[\\!a]", "!", true],
    ["[é-ë]", "ê", true],
    ["[😀]", "😀", true],
    ["[.]*", ".x", true],
    ["\\[x]", "[x]", true],
    ["\\\\", "\\", true],
    ["**", "a", true],
    ["**", "a/b/c", true],
    ["**/c", "c", true],
    ["**/c", "a/b/c", true],
    ["a/**", "a", false],
    ["a/**", "a/b", true],
    ["**/a.md/**", "a.md", false],
    ["**/a.md/**", "x/a.md/y", true],
    ["**/**", "a", true],
    ["a/**", "a/b/c", true],
    ["a/**", "ab/c", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a/**/b", "a/x/y/c", false],
    ["**/**/x", "x", true],
    ["**/a/**/a/**", "a/a", false],
    ["**/a/**/a/**", "a/a/x", true],
    ["**/a/**/a/**", "a/b/a/c", true],
    ["**/a/**/a/**", "b/a/c", false],
    ["A", "a", false],
    ["(a|b)", "(a|b)", true],
    ["a+", "aa", false],
    ["a.c", "abc", false],
    ["$^", "$^", true],
    ["{a,b}", "{a,b}", true],
    ["{a,b}", "a", false],
  ];

  for (const [pattern, path, expected] of table) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${path || '""'}`, () => {
      expect(matches(pattern, path)).toBe(expected);
    });
  }

  it("stays fast on many ** against a deep path", () => {
    const deep = Array.from({ length: 200 }, () => "a").join("/");
    expect(matches("**/**/**/**/**/**/**/**/b", deep)).toBe(false);
    expect(matches("**/a/**/a/**/a/**/a/**/a/**/a", deep)).toBe(true);
    expect(matches("**/a/**/a/**/a/**/a/**/a/**/b/**", deep)).toBe(false);
  });
});

describe("compileGlob against a regular expression", () => {
  /** The pattern as the backtracking RegExp the matcher replaced (fine on short names). */
  function reference(pattern: string): RegExp {
    const source = pattern.replace(/\*/g, ".*").replace(/\?/g, ".").replace(/\[!/g, "[^");
    return new RegExp(`^${source}$`, "u");
  }

  it("agrees on 3,000 random short patterns and names", () => {
    // A fixed linear congruential sequence: the same cases on every run.
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const tokens = ["a", "b", "é", "?", "*", "[ab]", "[!a]", "[a-é]"];
    const letters = ["a", "b", "é", "c"];
    for (let i = 0; i < 3000; i++) {
      let pattern = "";
      for (let n = next(7); n > 0; n--) {
        const token = tokens[next(tokens.length)] ?? "a";
        if (token === "*" && pattern.endsWith("*")) continue;
        pattern += token;
      }
      if (pattern === "") pattern = "*";
      let name = "";
      for (let n = next(8); n > 0; n--) name += letters[next(letters.length)];
      if (name === "") continue;
      expect(compileGlob(pattern).matches([name]), `${pattern} on ${name}`).toBe(
        reference(pattern).test(name),
      );
    }
  });
});

describe("compileGlob shape", () => {
  it("reports the literal prefix before the last segment and the depth bound", () => {
    expect(compileGlob("notes/day/*.md")).toMatchObject({
      pattern: "notes/day/*.md",
      literalPrefix: ["notes", "day"],
      maxSegments: 3,
    });
    expect(compileGlob("notes/*/x")).toMatchObject({ literalPrefix: ["notes"], maxSegments: 3 });
    expect(compileGlob("a.md")).toMatchObject({ literalPrefix: [], maxSegments: 1 });
    expect(compileGlob("n\\*tes/*")).toMatchObject({ literalPrefix: ["n*tes"], maxSegments: 2 });
    expect(compileGlob("a/**/b")).toMatchObject({ literalPrefix: ["a"], maxSegments: undefined });
  });
});

describe("compileGlob refusals", () => {
  const refusals: [string, string][] = [
    ["", "invalid pattern: the pattern is empty"],
    ["/a", "/a: invalid pattern: absolute patterns are not allowed"],
    ["a//b", "a//b: invalid pattern: empty segment"],
    ["../*", "../*: invalid pattern: '.' and '..' segments are not allowed"],
    ["a\u0000", "a\\u0000: invalid pattern: control characters are not allowed"],
    ["[ab", "[ab: invalid pattern: unclosed character class"],
    ["[]", "[]: invalid pattern: unclosed character class"],
    ["[!]", "[!]: invalid pattern: unclosed character class"],
    ["a[/]b", "a[/]b: invalid pattern: unclosed character class"],
    ["[z-a]", "[z-a]: invalid pattern: reversed range z-a"],
    ["[😀-a]", "[😀-a]: invalid pattern: reversed range 😀-a"],
    ["a\\", "a\\: invalid pattern: unfinished escape at the end"],
    ["[a\\", "[a\\: invalid pattern: unfinished escape at the end"],
    ["[a-\\", "[a-\\: invalid pattern: unfinished escape at the end"],
    ["a**", "a**: invalid pattern: ** must be a whole segment"],
    ["***", "***: invalid pattern: ** must be a whole segment"],
    ["x/**b/y", "x/**b/y: invalid pattern: ** must be a whole segment"],
  ];

  for (const [pattern, message] of refusals) {
    it(`refuses ${JSON.stringify(pattern)}`, async () => {
      expect(await storeFailure(Promise.resolve().then(() => compileGlob(pattern)))).toEqual({
        reason: "invalid_pattern",
        path: pattern,
        message,
      });
    });
  }

  it("accepts escaped stars next to a star", () => {
    expect(matches("\\**", "*abc")).toBe(true);
    expect(matches("*\\*", "abc*")).toBe(true);
  });
});
