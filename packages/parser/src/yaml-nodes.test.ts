import { describe, expect, it } from "vitest";
import { isMap, LineCounter, parseDocument } from "yaml";
import {
  describeNode,
  keyText,
  positionOf,
  resolveNode,
  toJson,
  type YamlSource,
} from "./yaml-nodes";

function source(yaml: string): YamlSource {
  const counter = new LineCounter();
  return {
    doc: parseDocument(yaml, { lineCounter: counter }),
    counter,
    lineOffset: 1,
    fallbackLine: 1,
  };
}

function valueAt(src: YamlSource, key: string): unknown {
  const contents = src.doc.contents;
  if (!isMap(contents)) throw new Error("expected a mapping");
  return contents.items.find((pair) => keyText(src, pair.key) === key)?.value;
}

describe("YAML node helpers", () => {
  it("place nodes at absolute file lines and columns", () => {
    const src = source("a: 1\nb:   [x, y]\n");
    expect(positionOf(src, valueAt(src, "b"))).toEqual({ line: 3, column: 6 });
    expect(positionOf(src, undefined)).toEqual({ line: 1, column: 1 });
  });

  it("describe values for messages", () => {
    const src = source("s: x\nn: 1\nb: true\nz: ~\nl: []\nm: {}\ni: .inf\nbin: !!binary aGk=\n");
    const kinds = ["s", "n", "b", "z", "l", "m", "i", "bin"].map((key) =>
      describeNode(resolveNode(src, valueAt(src, key))),
    );
    expect(kinds).toEqual([
      "a string",
      "a number",
      "a boolean",
      "null",
      "a list",
      "a mapping",
      "Infinity",
      "binary data",
    ]);
    expect(describeNode(undefined)).toBe("nothing");
  });

  it("resolve aliases", () => {
    const src = source("a: &x [1]\nb: *x\n");
    expect(toJson(src, valueAt(src, "b"), "b")).toEqual({ ok: true, value: [1] });
  });

  it("convert nested data to JSON", () => {
    const src = source("a: { list: [1, 'two', null, false], map: { k: v } }\n");
    expect(toJson(src, valueAt(src, "a"), "a")).toEqual({
      ok: true,
      value: { list: [1, "two", null, false], map: { k: "v" } },
    });
  });
});
