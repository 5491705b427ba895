import { describe, expect, it } from "vitest";
import { LineCounter, parseDocument } from "yaml";
import { YamlLines } from "./yaml-source";

function linesOf(text: string): YamlLines {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: true });
  return new YamlLines(doc, lineCounter);
}

const TEXT = `cases:
  - name: a
    expect:
      result: x
  - name: b
    host: &h
      packs: [web]
    prompt: |
      text
  - name: c
    host: *h
    other:
      <<: *h
`;

describe("YamlLines", () => {
  const lines = linesOf(TEXT);

  it("finds the line of a key", () => {
    expect(lines.lineOf(["cases", 0, "expect", "result"])).toBe(4);
    expect(lines.lineOf(["cases", 1, "prompt"])).toBe(8);
  });

  it("finds the line of a list item", () => {
    expect(lines.lineOf(["cases", 1])).toBe(5);
    expect(lines.lineOf(["cases", 1, "host", "packs", 0])).toBe(7);
  });

  it("falls back to the deepest part that exists", () => {
    expect(lines.lineOf(["cases", 0, "expect", "missing"])).toBe(3);
    expect(lines.lineOf(["cases", 9])).toBe(1);
  });

  it("follows aliases to the anchored value", () => {
    expect(lines.lineOf(["cases", 2, "host", "packs"])).toBe(7);
  });

  it("follows merge keys", () => {
    expect(lines.lineOf(["cases", 2, "other", "packs"])).toBe(7);
  });

  it("lists the start line of each item", () => {
    expect(lines.itemLines(["cases"])).toEqual([2, 5, 10]);
    expect(lines.itemLines(["cases", 0, "name"])).toEqual([]);
    expect(lines.itemLines(["nothing"])).toEqual([]);
  });
});
