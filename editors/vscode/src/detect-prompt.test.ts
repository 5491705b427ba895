import { describe, expect, it } from "vitest";
import { isRunvilPrompt } from "./detect-prompt";

describe("isRunvilPrompt", () => {
  it("finds runvil: 0 anywhere in the frontmatter, with CRLF, a BOM or a comment", () => {
    expect(isRunvilPrompt("---\nname: a\ndescription: b\nrunvil: 0\n---\n\n# A\n")).toBe(true);
    expect(isRunvilPrompt("\uFEFF---\r\nrunvil: 0\r\nname: a\r\n---\r\n")).toBe(true);
    expect(isRunvilPrompt("---  \nrunvil:0   # the format version\n---\n")).toBe(true);
  });

  it("ignores Markdown without the key in its frontmatter", () => {
    expect(isRunvilPrompt("# Notes\n\nrunvil: 0\n")).toBe(false);
    expect(isRunvilPrompt("---\ntitle: post\n---\nrunvil: 0\n")).toBe(false);
    expect(isRunvilPrompt("---\nmeta:\n  runvil: 0\n---\n")).toBe(false);
    expect(isRunvilPrompt("---\nrunvil: 1\n---\n")).toBe(false);
    expect(isRunvilPrompt("")).toBe(false);
  });
});
