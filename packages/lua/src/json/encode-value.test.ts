import { describe, expect, it } from "vitest";
import { encodeJsonLinesValue, encodeJsonValue } from "./encode-value";
import { jsonEncodeLimits } from "./limits";
import { JsonEncodeError } from "./messages";
import { decodeJsonValue, type JsonObject, type JsonValue } from "./value";

/** The message encodeJsonValue raises, or its text. */
function encodeOutcome(value: JsonValue, debug = false): string {
  try {
    return encodeJsonValue(value, { debug });
  } catch (error) {
    if (error instanceof JsonEncodeError) return `error: ${error.message}`;
    throw error;
  }
}

/** Lists nested `levels` deep: level 1 is the outer list, the innermost is empty. */
function nest(levels: number): JsonValue[] {
  const outer: JsonValue[] = [];
  let current = outer;
  for (let i = 1; i < levels; i++) {
    const inner: JsonValue[] = [];
    current.push(inner);
    current = inner;
  }
  return outer;
}

/** A loop of `size` lists, each holding the next at [1], the last holding the first. */
function ring(size: number): JsonValue[] {
  const first: JsonValue[] = [];
  let current = first;
  for (let i = 2; i <= size; i++) {
    const next: JsonValue[] = [];
    current.push(next);
    current = next;
  }
  current.push(first);
  return first;
}

const notJson = (value: unknown): JsonValue => value as JsonValue;

describe("encodeJsonValue on the chapter's examples", () => {
  it("round-trips json-round-trip with sorted keys", () => {
    const data = decodeJsonValue('{"name":"tides","tags":["sea"],"note":null}') as JsonObject;
    (data.tags as JsonValue[]).push("moon");
    data.count = BigInt((data.tags as JsonValue[]).length);
    expect(encodeJsonValue(data)).toBe(
      '{"count":2,"name":"tides","note":null,"tags":["sea","moon"]}',
    );
  });

  it("encodes tables, sorted keys, floats and null (encode-tables, sorted-keys, encode-var)", () => {
    expect(encodeJsonValue({})).toBe("{}");
    expect(encodeJsonValue([1n, 2n])).toBe("[1,2]");
    expect(encodeJsonValue({ a: 1n })).toBe('{"a":1}');
    expect(encodeJsonValue({ b: 1n, a: 2n, B: 3n })).toBe('{"B":3,"a":2,"b":1}');
    expect(encodeJsonValue({ cfg: { mode: "fast", sizes: [2.0, 1.5] }, empty: [] })).toBe(
      '{"cfg":{"mode":"fast","sizes":[2,1.5]},"empty":[]}',
    );
    expect(encodeJsonValue({ id: 7n, note: null })).toBe('{"id":7,"note":null}');
    expect(encodeJsonValue([null, 1n])).toBe("[null,1]");
    expect(encodeJsonValue(null)).toBe("null");
    expect(`${encodeJsonValue(true)} ${encodeJsonValue(false)}`).toBe("true false");
  });

  it("encodes a table shared in two places twice (shared-table)", () => {
    const s = [1n];
    expect(encodeJsonValue({ a: s, b: [s] })).toBe('{"a":[1],"b":[[1]]}');
  });

  it("refuses a table that contains itself, by path (encode-cycle)", () => {
    const t: JsonObject = {};
    t.self = t;
    expect(encodeOutcome(t)).toBe("error: json.encode: value.self contains itself");
  });

  it("names a refused value by its path (encode-refused, encode-function)", () => {
    expect(encodeOutcome({ items: ["a", notJson(() => 0)] })).toBe(
      "error: json.encode: value.items[2] must be JSON data, got function",
    );
    expect(encodeOutcome(notJson(() => 0))).toBe(
      "error: json.encode: value must be JSON data, got function",
    );
  });

  it("refuses the first failure in key order (refusal-order)", () => {
    expect(encodeOutcome({ b: notJson(() => 0), a: notJson(() => 0) })).toBe(
      "error: json.encode: value.a must be JSON data, got function",
    );
  });

  it("refuses NaN, infinities, and strings that are not UTF-8 (encode-refusals)", () => {
    expect(encodeOutcome({ ratio: Number.NaN })).toBe(
      "error: json.encode: value.ratio must be a finite number, got NaN",
    );
    expect(encodeOutcome([Number.POSITIVE_INFINITY])).toBe(
      "error: json.encode: value[1] must be a finite number, got Infinity",
    );
    expect(encodeOutcome("\udfff")).toBe("error: json.encode: value is not valid UTF-8");
    expect(encodeOutcome({ "a\ud800": 1n })).toBe(
      "error: json.encode: value.a\ufffd is a key that is not valid UTF-8",
    );
    expect(encodeOutcome([9223372036854775808n])).toBe(
      "error: json.encode: value[1] is outside the 64-bit integer range",
    );
  });

  it("writes 127 levels and refuses the table at level 128 by its path (too-deep)", () => {
    expect(encodeOutcome(nest(127))).toBe(`${"[".repeat(127)}${"]".repeat(127)}`);
    expect(encodeOutcome(nest(128))).toBe(
      `error: json.encode: value${"[1]".repeat(127)} is nested more than 127 levels deep`,
    );
    expect(encodeOutcome(nest(128), true)).toBe(`${"[".repeat(127)}"[too deep]"${"]".repeat(127)}`);
  });

  it("checks for a cycle before the depth (cycle-or-depth)", () => {
    const path = `json.encode: value${"[1]".repeat(127)}`;
    expect(encodeOutcome(ring(127))).toBe(`error: ${path} contains itself`);
    expect(encodeOutcome(ring(128))).toBe(`error: ${path} is nested more than 127 levels deep`);
  });
});

describe("encodeJsonValue in debug mode", () => {
  it("writes placeholders for what is not JSON data (debug-dump)", () => {
    const state: JsonObject = { step: 2n, retry: notJson(() => 0), ratio: Number.NaN };
    state.self = state;
    expect(encodeOutcome(state, true)).toBe(
      '{"ratio":"NaN","retry":"[function]","self":"[cycle]","step":2}',
    );
  });

  it("writes infinities and replaces invalid UTF-8 (debug-infinities, debug-utf8)", () => {
    expect(encodeOutcome([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY], true)).toBe(
      '["Infinity","-Infinity"]',
    );
    expect(encodeOutcome({ "k\udc00": "\ud800" }, true)).toBe('{"k\ufffd":"\ufffd"}');
  });
});

describe("the size budget", () => {
  it("refuses a table shared at every level of a deep nest (too-large)", () => {
    let t: JsonValue = [];
    for (let i = 0; i < 40; i++) t = [t, t];
    const limits = jsonEncodeLimits(8 * 10_000);
    expect(() => encodeJsonValue(t, { limits })).toThrow(
      new JsonEncodeError("json.encode: value is too large to encode"),
    );
    expect(() => encodeJsonValue(t, { limits, debug: true })).toThrow(
      "json.encode: value is too large to encode",
    );
  });

  it("allows 100,000 string keys on a path and refuses 100,001 (too-many-keys)", () => {
    const object: JsonObject = {};
    for (let i = 1; i <= 100_000; i++) object[`k${i}`] = BigInt(i);
    expect(encodeJsonValue(object)).toHaveLength(1_477_791);
    object.k100001 = 100001n;
    expect(() => encodeJsonValue(object)).toThrow("json.encode: value is too large to encode");
    expect(() => encodeJsonValue({ a: { b: 1n, c: 2n } }, { limits: pathKeys(2) })).toThrow(
      "json.encode: value is too large to encode",
    );
    expect(encodeJsonValue({ a: [{ b: 1n }] }, { limits: pathKeys(2) })).toBe('{"a":[{"b":1}]}');
  });

  it("encodes a list of a million strings (million-strings)", () => {
    expect(encodeJsonValue(new Array<JsonValue>(1_000_000).fill("x"))).toHaveLength(4_000_001);
  });

  it("counts string bytes of values and keys", () => {
    const limits = { ...jsonEncodeLimits(), maxStringBytes: 7 };
    expect(encodeJsonValue({ ab: "cdéf" }, { limits })).toBe('{"ab":"cdéf"}');
    expect(() => encodeJsonValue({ ab: "cdéfg" }, { limits })).toThrow(
      "json.encode: value is too large to encode",
    );
  });
});

function pathKeys(maxPathKeys: number) {
  return { ...jsonEncodeLimits(), maxPathKeys };
}

describe("encodeJsonLinesValue", () => {
  it("writes one record per item, each ending in a newline (rows, empty-lines)", () => {
    expect(encodeJsonLinesValue([])).toBe("");
    expect(
      encodeJsonLinesValue([
        { n: 2n, tag: "b" },
        { n: 3n, tag: null },
      ]),
    ).toBe('{"n":2,"tag":"b"}\n{"n":3,"tag":null}\n');
  });

  it("names items by their path under the list (lines-item-path, lines-cycle)", () => {
    expect(() => encodeJsonLinesValue([{}, { name: notJson(() => 0) }])).toThrow(
      "json.encode_lines: value[2].name must be JSON data, got function",
    );
    const list: JsonValue[] = [];
    list.push(list);
    expect(() => encodeJsonLinesValue(list)).toThrow("json.encode_lines: value[1] contains itself");
  });

  it("writes placeholders inside items in debug mode (lines-debug)", () => {
    expect(encodeJsonLinesValue([{ f: notJson(() => 0) }], { debug: true })).toBe(
      '{"f":"[function]"}\n',
    );
  });

  it("shares one budget across items (lines-too-large)", () => {
    const limits = { ...jsonEncodeLimits(), maxValues: 4 };
    expect(encodeJsonLinesValue([1n, 2n, 3n], { limits })).toBe("1\n2\n3\n");
    expect(() => encodeJsonLinesValue([1n, 2n, 3n, 4n], { limits })).toThrow(
      "json.encode_lines: value is too large to encode",
    );
  });
});
