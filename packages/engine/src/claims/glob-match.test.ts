import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob-match";

const matches = (pattern: string, path: string) => compileGlob(pattern)(path);

describe("compileGlob", () => {
  it("matches stars, question marks and classes inside one segment", () => {
    expect(matches("out/*.md", "out/a.md")).toBe(true);
    expect(matches("out/*.md", "out/a/b.md")).toBe(false);
    expect(matches("out/?.md", "out/ab.md")).toBe(false);
    expect(matches("out/[a-c]x", "out/bx")).toBe(true);
    expect(matches("out/[!a-c]x", "out/bx")).toBe(false);
    expect(matches("out/[]]", "out/]")).toBe(true);
    expect(matches("a\\*", "a*")).toBe(true);
    expect(matches("a\\*", "ab")).toBe(false);
  });

  it("matches ** as zero or more segments, one or more at the end", () => {
    expect(matches("a/**/b.md", "a/b.md")).toBe(true);
    expect(matches("a/**/b.md", "a/x/y/b.md")).toBe(true);
    expect(matches("a/**", "a")).toBe(false);
    expect(matches("a/**", "a/x/y")).toBe(true);
    expect(matches("**", "any/file")).toBe(true);
  });

  it("answers a pattern that would make a backtracking matcher exponential at once", () => {
    const name = "a".repeat(200);
    expect(matches("*a*a*a*a*a*a*a*a*a*a*a*a*b", name)).toBe(false);
  });
});
