import { describe, expect, it } from "vitest";
import { isBlankLine, Lines, normalizeLineEndings } from "./lines";

describe("normalizeLineEndings", () => {
  it("turns CRLF and lone CR into LF", () => {
    expect(normalizeLineEndings("a\r\nb\rc\n")).toBe("a\nb\nc\n");
  });

  it("returns LF text unchanged", () => {
    expect(normalizeLineEndings("a\nb")).toBe("a\nb");
  });
});

describe("Lines", () => {
  it("counts lines, a final line ending ending the last line", () => {
    expect(new Lines("a\nb\n").count).toBe(2);
    expect(new Lines("a\nb").count).toBe(2);
    expect(new Lines("a\n\n").count).toBe(2);
    expect(new Lines("").count).toBe(0);
  });

  it("reads lines by absolute number, empty past the end", () => {
    const lines = new Lines("one\ntwo\n");
    expect(lines.at(1)).toBe("one");
    expect(lines.at(2)).toBe("two");
    expect(lines.at(3)).toBe("");
    expect(lines.at(0)).toBe("");
  });

  it("slices inclusive ranges", () => {
    const lines = new Lines("1\n2\n3\n4\n");
    expect(lines.slice(2, 3)).toBe("2\n3");
    expect(lines.slice(3, 2)).toBe("");
  });

  it("knows blank lines", () => {
    const lines = new Lines("x\n \t\n\n");
    expect(lines.isBlank(1)).toBe(false);
    expect(lines.isBlank(2)).toBe(true);
    expect(lines.isBlank(3)).toBe(true);
    expect(isBlankLine(" a ")).toBe(false);
  });
});
