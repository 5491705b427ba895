import { describe, expect, it } from "vitest";
import { decodeValue, encodeOutput, encodeValue, encodeValueByCopy } from "./codec";

describe("the journal codec", () => {
  it("round-trips bytes, bigints and undefined", () => {
    const value = {
      path: Uint8Array.of(0xff, 0, 0x61),
      seed: 18446744073709551615n,
      out: [undefined],
    };
    expect(decodeValue(encodeValue(value))).toEqual(value);
    expect(decodeValue(encodeValue(undefined))).toBeUndefined();
  });

  it("sorts keys, so equal values encode to equal text", () => {
    expect(encodeValue({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(encodeValue({ a: 1, b: 2 })).toBe(encodeValue({ b: 2, a: 1 }));
  });

  it("keeps an output's key order, since a replay hands the output back as it was", () => {
    const reply = { toolCalls: [{ arguments: { owner: "Ben", due: "Friday" } }], text: "" };
    expect(encodeOutput(reply)).toBe(
      '{"toolCalls":[{"arguments":{"owner":"Ben","due":"Friday"}}],"text":""}',
    );
    expect(JSON.stringify(decodeValue(encodeOutput(reply)))).toBe(JSON.stringify(reply));
    expect(decodeValue(encodeOutput({ $bigint: "1", n: 2n }))).toEqual({ $bigint: "1", n: 2n });
    const indexed = { b: 1, 2: "two", a: [Uint8Array.of(0xff)], 1: undefined };
    expect(encodeOutput(indexed)).toBe(JSON.stringify(JSON.parse(encodeOutput(indexed))));
    expect(decodeValue(encodeOutput(indexed))).toEqual({
      2: "two",
      b: 1,
      a: [Uint8Array.of(0xff)],
    });
  });

  it("drops fields that are undefined, as an absent optional field", () => {
    expect(encodeValue({ op: "list", prefix: undefined })).toBe('{"op":"list"}');
  });

  it("escapes a program's own object whose keys look like tags", () => {
    const value = { $bytes: "AAEC", other: 1 };
    const lone = { $bigint: "12" };
    expect(encodeValue(lone)).toBe('{"$object":{"$bigint":"12"}}');
    expect(decodeValue(encodeValue(value))).toEqual(value);
    expect(decodeValue(encodeValue(lone))).toEqual(lone);
    expect(decodeValue(encodeValue({ $object: { x: 1 } }))).toEqual({ $object: { x: 1 } });
  });

  it("refuses what JSON cannot hold", () => {
    expect(() => encodeValue(Number.NaN)).toThrow("the journal cannot encode the number NaN");
    expect(() => encodeValue(() => 1)).toThrow(
      "the journal cannot encode a value of type function",
    );
  });

  it("writes the same text as the copy JSON.stringify writes, for every kind of value", () => {
    const values: unknown[] = [
      null,
      true,
      -0,
      1e21,
      0.1,
      "é \u0000 \ud800 😀",
      [1, undefined, [2, [3]]],
      // biome-ignore lint/suspicious/noSparseArray: a hole is one of the cases
      [1, , 3],
      { op: "write", path: "notes/1.md", contents: "x".repeat(200) },
      { b: 1, a: { d: [true], c: 3 }, "": 0, Z: 1, é: 2, "😀": 3, "\ud800": 4 },
      { 10: "a", 9: "b", x: "c", "01": "d" },
      { nested: { 2: 0, 1: 0, b: 0 }, a: [{ $tag: 1 }] },
      { $bytes: "AAEC", other: 1, gone: undefined },
      { gone: undefined },
      new Date(0),
      new Map([[1, 2]]),
      Uint8Array.of(0xff, 0),
      Buffer.from("hi"),
      { deep: { bytes: Uint8Array.of(1), big: -12n, none: [undefined] } },
    ];
    for (const value of values) expect(encodeValue(value)).toBe(encodeValueByCopy(value));
  });
});
