import { describe, expect, it } from "vitest";
import { JsonDecodeError, jsonTextPosition } from "./decode-error";
import { decodeJson, decodeJsonLines } from "./decoder";
import { JSON_DECODE_LIMITS } from "./limits";
import type { JsonSink } from "./sink";
import { decodeJsonLinesValue, decodeJsonValue } from "./value";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The message json.decode raises for `text`, or "ok". */
function decodeMessage(text: string | Uint8Array): string {
  try {
    decodeJsonValue(text);
    return "ok";
  } catch (error) {
    if (error instanceof JsonDecodeError) return error.message;
    throw error;
  }
}

/** Records sink events as short strings. */
class RecordingSink implements JsonSink {
  readonly events: string[] = [];
  private readonly text: Uint8Array;
  constructor(text: Uint8Array) {
    this.text = text;
  }
  beginObject(): void {
    this.events.push("{");
  }
  private where(source: Uint8Array, start: number): string {
    return source === this.text ? `@${start}` : "@scratch";
  }
  key(source: Uint8Array, start: number, end: number): void {
    const text = new TextDecoder().decode(source.subarray(start, end));
    this.events.push(`key ${text} ${this.where(source, start)}`);
  }
  endObject(): void {
    this.events.push("}");
  }
  beginArray(): void {
    this.events.push("[");
  }
  endArray(): void {
    this.events.push("]");
  }
  string(source: Uint8Array, start: number, end: number): void {
    const text = new TextDecoder().decode(source.subarray(start, end));
    this.events.push(`string ${JSON.stringify(text)} ${this.where(source, start)}`);
  }
  integer(v: number | bigint): void {
    this.events.push(`integer ${typeof v} ${v}`);
  }
  float(v: number): void {
    this.events.push(`float ${Object.is(v, -0) ? "-0" : v}`);
  }
  boolean(v: boolean): void {
    this.events.push(`boolean ${v}`);
  }
  null(): void {
    this.events.push("null");
  }
}

function events(text: string): string[] {
  const b = bytes(text);
  const sink = new RecordingSink(b);
  decodeJson(b, sink);
  return sink.events;
}

describe("json.decode examples from the chapter", () => {
  it("decodes the json-round-trip document", () => {
    expect(decodeJsonValue('{"name":"tides","tags":["sea"],"note":null}')).toEqual({
      name: "tides",
      tags: ["sea"],
      note: null,
    });
  });

  it("gives integers, floats past the int64 range, and a list keeping its null (decoded-types)", () => {
    const v = decodeJsonValue('{"n":2,"x":1.5,"big":9223372036854775808,"list":[1,null,3]}');
    expect(v).toEqual({ n: 2n, x: 1.5, big: 2 ** 63, list: [1n, null, 3n] });
  });

  it("raises expected value for x", () => {
    expect(decodeMessage("x")).toBe("json.decode: expected value at line 1 column 1");
  });

  it("raises trailing characters for two documents", () => {
    expect(decodeMessage("1 2")).toBe("json.decode: trailing characters at line 1 column 3");
  });

  it("accepts 127 nested arrays and rejects the 128th bracket", () => {
    expect(decodeMessage(`${"[".repeat(127)}${"]".repeat(127)}`)).toBe("ok");
    expect(decodeMessage(`${"[".repeat(128)}${"]".repeat(128)}`)).toBe(
      "json.decode: recursion limit exceeded at line 1 column 128",
    );
    expect(decodeMessage(`${'{"a":'.repeat(127)}1${"}".repeat(127)}`)).toBe("ok");
    expect(decodeMessage(`${'{"a":'.repeat(128)}1${"}".repeat(128)}`)).toBe(
      "json.decode: recursion limit exceeded at line 1 column 636",
    );
  });

  it("refuses text over 8,388,608 bytes before parsing, and takes exactly that many", () => {
    const over = new Uint8Array(8_388_609).fill(0x20);
    expect(decodeMessage(over)).toBe("json.decode: input exceeds the 8388608-byte limit");
    expect(() => decodeJsonLines(over, new RecordingSink(over))).toThrow(
      "json.decode_lines: input exceeds the 8388608-byte limit",
    );
    const exact = new Uint8Array(8_388_608).fill(0x20);
    expect(decodeMessage(exact)).toBe(
      "json.decode: EOF while parsing a value at line 1 column 8388608",
    );
  });
});

describe("json.decode number types", () => {
  it("keeps integers in the 64-bit range as integers, as numbers while safe", () => {
    expect(events("[0,-0,7,-12,9007199254740991,9007199254740992]")).toEqual([
      "[",
      "integer number 0",
      "integer number 0",
      "integer number 7",
      "integer number -12",
      "integer number 9007199254740991",
      "integer bigint 9007199254740992",
      "]",
    ]);
    expect(events("[9223372036854775807,-9223372036854775808,123456789012345678]")).toEqual([
      "[",
      "integer bigint 9223372036854775807",
      "integer bigint -9223372036854775808",
      "integer bigint 123456789012345678",
      "]",
    ]);
  });

  it("makes every other number a float: 1.0, 1e2, -0.0, past the range, huge", () => {
    expect(
      events(
        "[1.0,1e2,-0.0,9223372036854775808,-9223372036854775809,100000000000000000000,1E22,1e-2]",
      ),
    ).toEqual([
      "[",
      "float 1",
      "float 100",
      "float -0",
      "float 9223372036854776000",
      "float -9223372036854776000",
      "float 100000000000000000000",
      "float 1e+22",
      "float 0.01",
      "]",
    ]);
  });

  it("rounds decimal text correctly on both the fast and the slow path", () => {
    const samples = [
      "0.1",
      "123.456",
      "-98765.4321e-3",
      "2.2250738585072014e-308",
      "4.9e-324",
      "1.7976931348623157e308",
      "0.30000000000000004",
      "123456789012345.6",
      "1234567890123456789e-5",
      "7.0e22",
      "8e-23",
      "0.000001",
      "123e-10000000",
    ];
    for (const text of samples) {
      expect(decodeJsonValue(text), text).toBe(Number(text));
    }
  });

  it("reads a number token longer than any call-argument limit", () => {
    expect(decodeJsonValue(`0.${"0".repeat(200_000)}1`)).toBe(0);
    expect(decodeJsonValue(`1${"0".repeat(300)}`)).toBe(1e300);
    expect(decodeMessage(`1${"0".repeat(400)}`)).toBe(
      "json.decode: number out of range at line 1 column 401",
    );
  });
});

describe("json.decode strings", () => {
  it("unescapes every escape, surrogate pairs included", () => {
    expect(decodeJsonValue('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\\ud83d\\ude00\\u0000"')).toBe(
      '"\\/\b\f\n\r\t\u00e9\u20ac\u{1f600}\u0000',
    );
  });

  it("passes unescaped strings as ranges of the input and escaped ones from scratch", () => {
    expect(events('{"ab":"c\\nd","é":"x"}')).toEqual([
      "{",
      "key ab @2",
      'string "c\\nd" @scratch',
      "key é @14",
      'string "x" @19',
      "}",
    ]);
  });

  it("keeps raw UTF-8 and delivers every duplicate key, the model keeping the last", () => {
    expect(events('{"a":1,"a":2}')).toEqual([
      "{",
      "key a @2",
      "integer number 1",
      "key a @8",
      "integer number 2",
      "}",
    ]);
    expect(decodeJsonValue('{"a":1,"a":2}')).toEqual({ a: 2n });
    expect(decodeJsonValue('"h\u00e9llo \u{1f30a}"')).toBe("h\u00e9llo \u{1f30a}");
  });

  it("stores __proto__ as an ordinary key", () => {
    const v = decodeJsonValue('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toEqual({ x: 1n });
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});

describe("json.decode message catalogue and positions", () => {
  const cases: [string, string][] = [
    ["", "EOF while parsing a value at line 1 column 0"],
    ["   ", "EOF while parsing a value at line 1 column 3"],
    ["[", "EOF while parsing a list at line 1 column 1"],
    ["[1", "EOF while parsing a list at line 1 column 2"],
    ["[1,", "EOF while parsing a value at line 1 column 3"],
    ["[1,]", "trailing comma at line 1 column 4"],
    ["[1 2]", "expected `,` or `]` at line 1 column 4"],
    ["[,1]", "expected value at line 1 column 2"],
    ["{", "EOF while parsing an object at line 1 column 1"],
    ["{1:2}", "key must be a string at line 1 column 2"],
    ['{"a"', "EOF while parsing an object at line 1 column 4"],
    ['{"a" 1}', "expected `:` at line 1 column 6"],
    ['{"a":', "EOF while parsing a value at line 1 column 5"],
    ['{"a":1', "EOF while parsing an object at line 1 column 6"],
    ['{"a":1,', "EOF while parsing a value at line 1 column 7"],
    ['{"a":1,}', "trailing comma at line 1 column 8"],
    ['{"a":1,2}', "key must be a string at line 1 column 8"],
    ['{"a":1 "b":2}', "expected `,` or `}` at line 1 column 8"],
    ["tru", "EOF while parsing a value at line 1 column 3"],
    ["trux", "expected ident at line 1 column 4"],
    ["nul", "EOF while parsing a value at line 1 column 3"],
    ["True", "expected value at line 1 column 1"],
    ["-", "EOF while parsing a value at line 1 column 1"],
    ["-a", "invalid number at line 1 column 2"],
    ["01", "invalid number at line 1 column 2"],
    ["-01", "invalid number at line 1 column 3"],
    ["1.", "EOF while parsing a value at line 1 column 2"],
    ["1.x", "invalid number at line 1 column 3"],
    ["1e", "EOF while parsing a value at line 1 column 2"],
    ["1e+", "EOF while parsing a value at line 1 column 3"],
    ["1ex", "invalid number at line 1 column 3"],
    [".5", "expected value at line 1 column 1"],
    ["+1", "expected value at line 1 column 1"],
    ["[1e400]", "number out of range at line 1 column 6"],
    ["-1e400", "number out of range at line 1 column 6"],
    ['"abc', "EOF while parsing a string at line 1 column 4"],
    [
      '"a\tb"',
      "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3",
    ],
    [
      '"a\\nb\u0001"',
      "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 6",
    ],
    ['"\\x"', "invalid escape at line 1 column 3"],
    ['"\\', "EOF while parsing a string at line 1 column 2"],
    ['"\\u12"', "EOF while parsing a string at line 1 column 6"],
    ['"\\u12G4"', "invalid escape at line 1 column 6"],
    ['"\\uDC00"', "lone leading surrogate in hex escape at line 1 column 7"],
    ['"\\uD800"', "unexpected end of hex escape at line 1 column 8"],
    ['"\\uD800\\n"', "unexpected end of hex escape at line 1 column 9"],
    ['"\\uD800\\u0041"', "lone leading surrogate in hex escape at line 1 column 13"],
    ['"\\uD800', "EOF while parsing a string at line 1 column 7"],
    ['{\n  "a": x\n}', "expected value at line 2 column 8"],
    ["[1,\r\n 2,\n\n  ]", "trailing comma at line 4 column 3"],
    ["[1]\n\n", "ok"],
    [" \t\r\n{} \t\r\n", "ok"],
  ];
  for (const [text, detail] of cases) {
    it(`${JSON.stringify(text)} -> ${detail}`, () => {
      expect(decodeMessage(text)).toBe(detail === "ok" ? "ok" : `json.decode: ${detail}`);
    });
  }

  it("reports invalid UTF-8 in a string at its closing quote", () => {
    expect(decodeMessage(new Uint8Array([0x22, 0x61, 0xff, 0x62, 0x22]))).toBe(
      "json.decode: invalid unicode code point at line 1 column 5",
    );
    expect(decodeMessage(new Uint8Array([0x22, 0x5c, 0x6e, 0xed, 0xa0, 0x80, 0x22]))).toBe(
      "json.decode: invalid unicode code point at line 1 column 7",
    );
    // A later control character is reported first, the string never being complete.
    expect(decodeMessage(new Uint8Array([0x22, 0xc0, 0x01, 0x22]))).toBe(
      "json.decode: control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3",
    );
  });

  it("refuses a byte order mark and bytes that are not JSON outside strings", () => {
    expect(decodeMessage(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe(
      "json.decode: expected value at line 1 column 1",
    );
    expect(decodeMessage(new Uint8Array([0x5b, 0x00, 0x5d]))).toBe(
      "json.decode: expected value at line 1 column 2",
    );
    expect(decodeMessage("[1]\f")).toBe("json.decode: trailing characters at line 1 column 4");
  });

  it("names another function and honours smaller limits", () => {
    expect(() => decodeJsonValue("[[1]]", { maxInputBytes: 100, maxDepth: 1 }, "tool")).toThrow(
      "tool: recursion limit exceeded at line 1 column 2",
    );
    expect(() => decodeJsonValue("[1]", { maxInputBytes: 2, maxDepth: 127 })).toThrow(
      "json.decode: input exceeds the 2-byte limit",
    );
  });

  it("exposes the parts of an error", () => {
    try {
      decodeJsonValue("[\n  1,\n  ?]");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonDecodeError);
      const e = error as JsonDecodeError;
      expect([e.functionName, e.detail, e.reason, e.line, e.column]).toEqual([
        "json.decode",
        "expected value at line 3 column 3",
        "expected value",
        3,
        3,
      ]);
    }
  });

  it("counts lines by LF only and columns in bytes", () => {
    expect(jsonTextPosition(bytes("ab\ncd"), 4)).toEqual({ line: 2, column: 2 });
    expect(jsonTextPosition(bytes("ab\r\ncd"), 2)).toEqual({ line: 1, column: 3 });
    expect(jsonTextPosition(bytes("ab\n"), 3)).toEqual({ line: 2, column: 0 });
    expect(decodeMessage('["é", x]')).toBe("json.decode: expected value at line 1 column 8");
  });

  it("fails fast on very deep input without touching the JS stack", () => {
    expect(decodeMessage("[".repeat(100_000))).toBe(
      "json.decode: recursion limit exceeded at line 1 column 128",
    );
    expect(decodeMessage('{"a":'.repeat(100_000))).toBe(
      "json.decode: recursion limit exceeded at line 1 column 636",
    );
  });

  it("lets errors thrown by the sink pass through unchanged", () => {
    const failure = new Error("not enough memory");
    const sink = new RecordingSink(bytes("[1]"));
    sink.integer = () => {
      throw failure;
    };
    expect(() => decodeJson(bytes("[1]"), sink, JSON_DECODE_LIMITS)).toThrow(failure);
  });
});

describe("json.decode_lines", () => {
  it("separates values by any whitespace, blank text giving an empty list", () => {
    expect(decodeJsonLinesValue("  \n \n")).toEqual([]);
    expect(decodeJsonLinesValue("")).toEqual([]);
    expect(decodeJsonLinesValue('1 2\r\n{"a":\n3}\n\n')).toEqual([1n, 2n, { a: 3n }]);
  });

  it("reads the rows example back", () => {
    const text = '{"n":1,"tag":"a"}\n{"n":2,"tag":"b"}\n{"n":3,"tag":null}\n';
    expect(decodeJsonLinesValue(text)).toEqual([
      { n: 1n, tag: "a" },
      { n: 2n, tag: "b" },
      { n: 3n, tag: null },
    ]);
  });

  it("counts lines across the whole text", () => {
    expect(() => decodeJsonLinesValue('{"a":1}\n{"a":2}\n{"a":x}')).toThrow(
      new JsonDecodeError(
        "json.decode_lines",
        "expected value at line 3 column 6",
        "expected value",
        { line: 3, column: 6 },
      ),
    );
    expect(() => decodeJsonLinesValue('{"a":1}\n{"a":2}\n{"a":x}')).toThrow(
      "json.decode_lines: expected value at line 3 column 6",
    );
  });

  it("lets a bracketed or quoted value touch the next, but not a bare one", () => {
    expect(decodeJsonLinesValue('[1][2]"a""b"{}3')).toEqual([[1n], [2n], "a", "b", {}, 3n]);
    expect(decodeJsonLinesValue("12 1[2]")).toEqual([12n, 1n, [2n]]);
    expect(() => decodeJsonLinesValue("truefalse")).toThrow(
      "json.decode_lines: trailing characters at line 1 column 5",
    );
    expect(() => decodeJsonLinesValue("1]")).toThrow(
      "json.decode_lines: expected value at line 1 column 2",
    );
  });

  it("limits each value to 127 levels, not counting the list", () => {
    const deep = `${"[".repeat(127)}${"]".repeat(127)}`;
    expect(decodeJsonLinesValue(`${deep}\n${deep}`)).toHaveLength(2);
    expect(() => decodeJsonLinesValue(`1\n${"[".repeat(128)}`)).toThrow(
      "json.decode_lines: recursion limit exceeded at line 2 column 128",
    );
  });
});
