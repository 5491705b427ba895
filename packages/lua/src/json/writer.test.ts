import { describe, expect, it } from "vitest";
import { sortKeysBytewise } from "./utf8";
import { JsonWriter } from "./writer";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A deterministic generator of strings over a mix of ASCII, controls and non-ASCII. */
function randomStrings(count: number): string[] {
  const alphabet = ["a", "Z", " ", '"', "\\", "/", "\n", "\t", "\u0000", "\u001f", "\u007f"];
  alphabet.push("é", "\u2028", "\uffff", "\u{1f30a}", "\ue000", "€");
  let seed = 7;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = "";
    const len = i % 40;
    for (let j = 0; j < len; j++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      s += alphabet[seed % alphabet.length];
    }
    out.push(s);
  }
  return out;
}

function written(fill: (w: JsonWriter) => void, debug = false): string {
  const w = new JsonWriter({ debug, initialCapacity: 4 });
  fill(w);
  return w.text();
}

describe("JsonWriter strings", () => {
  it("escapes only quote, backslash and U+0000-U+001F, with short forms and lowercase \\u00XX", () => {
    const s = '"\\/\b\f\n\r\t\u0000\u0001\u001f\u007f é';
    const expected = '"\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u0001\\u001f\u007f é"';
    expect(written((w) => w.string(s))).toBe(expected);
    expect(written((w) => w.string(bytes(s)))).toBe(expected);
  });

  it("writes a newline as \\n, so every value is one line (encode-newline)", () => {
    expect(written((w) => w.string("a\nb"))).toBe('"a\\nb"');
  });

  it("matches JSON.stringify for well-formed strings, from JS strings and from bytes", () => {
    for (const s of randomStrings(300)) {
      const expected = JSON.stringify(s);
      expect(written((w) => w.string(s))).toBe(expected);
      expect(written((w) => w.string(bytes(s)))).toBe(expected);
    }
  });

  it("writes strings and keys from a byte range without a view (stringBytes, keyBytes)", () => {
    const heap = bytes('xx"name"\u00ff\nyy');
    const nameStart = 3;
    const w = new JsonWriter({ initialCapacity: 1 });
    w.beginObject();
    expect(w.keyBytes(heap, nameStart, nameStart + 4)).toBe(true);
    expect(w.stringBytes(heap, 8, 11)).toBe(true);
    expect(w.lastStringBytes).toBe(3);
    w.endObject();
    expect(w.text()).toBe('{"name":"\u00ff\\n"}');
    w.reset();
    const bad = new Uint8Array([0x61, 0xff, 0x62]);
    expect(w.stringBytes(bad, 0, 1)).toBe(true);
    w.reset();
    expect(w.stringBytes(bad, 1, 3)).toBe(false);
  });

  it("counts the UTF-8 bytes of the last string for the byte budget", () => {
    const w = new JsonWriter();
    w.beginArray();
    w.string("aé\u{1f30a}\n");
    expect(w.lastStringBytes).toBe(1 + 2 + 4 + 1);
    w.string(bytes("xyz"));
    expect(w.lastStringBytes).toBe(3);
  });

  it("refuses invalid UTF-8 in strict mode, in values and keys", () => {
    const w = new JsonWriter();
    expect(w.string(new Uint8Array([0x61, 0xff]))).toBe(false);
    w.reset();
    expect(w.string("a\ud800b")).toBe(false);
    w.reset();
    w.beginObject();
    expect(w.key(new Uint8Array([0xc3]))).toBe(false);
    w.reset();
    w.beginObject();
    expect(w.key("\udc00")).toBe(false);
  });

  it("replaces each maximal invalid subpart with U+FFFD in debug mode, like TextDecoder", () => {
    const samples = [
      [0xff],
      [0x61, 0xc3],
      [0xe2, 0x82, 0x61],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x9f, 0x8c],
      [0xf4, 0x90, 0x80, 0x80],
      [0xc0, 0xaf, 0x22],
      [0x80, 0xbf, 0x0a],
    ];
    for (const sample of samples) {
      const b = new Uint8Array(sample);
      expect(written((w) => w.string(b), true)).toBe(JSON.stringify(new TextDecoder().decode(b)));
    }
    expect(written((w) => w.string("\ud800x\udc00"), true)).toBe('"\ufffdx\ufffd"');
    expect(written((w) => w.string(new Uint8Array([0xff])), true)).toBe('"\ufffd"');
  });

  it("grows its buffer through long escaped strings", () => {
    const s = "\u0001".repeat(5000) + "x".repeat(5000);
    expect(written((w) => w.string(s))).toBe(JSON.stringify(s));
    expect(written((w) => w.string(bytes(s)))).toBe(JSON.stringify(s));
  });
});

describe("JsonWriter numbers and literals", () => {
  it("writes integers exactly, as numbers or bigints", () => {
    expect(
      written((w) => {
        w.beginArray();
        w.integer(0);
        w.integer(-5);
        w.integer(9223372036854775807n);
        w.integer(-9223372036854775808n);
        w.endArray();
      }),
    ).toBe("[0,-5,9223372036854775807,-9223372036854775808]");
  });

  it("writes floats by the chapter's rules", () => {
    expect(
      written((w) => {
        w.beginArray();
        for (const x of [2.0, 1.5, -0.0, 1e300, -(2 ** 63), 2 ** 63]) w.float(x);
        w.endArray();
      }),
    ).toBe("[2,1.5,0,1e+300,-9223372036854775808,9223372036854776000]");
  });

  it("refuses NaN and the infinities in strict mode and names them in debug mode", () => {
    const strict = new JsonWriter();
    strict.beginArray();
    expect(strict.float(Number.NaN)).toBe(false);
    expect(strict.float(Number.POSITIVE_INFINITY)).toBe(false);
    expect(
      written((w) => {
        w.beginArray();
        w.float(Number.NaN);
        w.float(Number.POSITIVE_INFINITY);
        w.float(Number.NEGATIVE_INFINITY);
        w.endArray();
      }, true),
    ).toBe('["NaN","Infinity","-Infinity"]');
  });

  it("writes null and booleans", () => {
    expect(
      written((w) => {
        w.beginArray();
        w.null();
        w.boolean(true);
        w.boolean(false);
        w.endArray();
      }),
    ).toBe("[null,true,false]");
  });
});

describe("JsonWriter structure", () => {
  it("writes the json-round-trip result with separators and sorted keys", () => {
    const keys = sortKeysBytewise(["tags", "note", "name", "count"].map(bytes));
    const values: Record<string, (w: JsonWriter) => void> = {
      count: (w) => w.integer(2),
      name: (w) => w.string("tides"),
      note: (w) => w.null(),
      tags: (w) => {
        w.beginArray();
        w.string("sea");
        w.string("moon");
        w.endArray();
      },
    };
    const text = written((w) => {
      w.beginObject();
      for (const key of keys) {
        w.key(key);
        values[new TextDecoder().decode(key)]?.(w);
      }
      w.endObject();
    });
    expect(text).toBe('{"count":2,"name":"tides","note":null,"tags":["sea","moon"]}');
  });

  it("sorts keys bytewise: uppercase first, then by UTF-8 bytes (sorted-keys)", () => {
    const keys = sortKeysBytewise(["b", "a", "B", "\u{1f30a}", "\uffff", "ab"].map(bytes));
    expect(keys.map((k) => new TextDecoder().decode(k))).toEqual([
      "B",
      "a",
      "ab",
      "b",
      "\uffff",
      "\u{1f30a}",
    ]);
  });

  it("writes empty and nested containers", () => {
    expect(
      written((w) => {
        w.beginObject();
        w.key("long");
        w.beginArray();
        w.endArray();
        w.key("plain");
        w.beginObject();
        w.endObject();
        w.key("x");
        w.beginArray();
        w.beginArray();
        w.integer(1);
        w.endArray();
        w.beginObject();
        w.endObject();
        w.endArray();
        w.endObject();
      }),
    ).toBe('{"long":[],"plain":{},"x":[[1],{}]}');
  });

  it("ends JSON Lines records with a newline", () => {
    const w = new JsonWriter();
    w.beginObject();
    w.key("n");
    w.integer(1);
    w.endObject();
    w.endRecord();
    w.integer(2);
    w.endRecord();
    expect(w.text()).toBe('{"n":1}\n2\n');
    expect(new TextDecoder().decode(w.bytes())).toBe('{"n":1}\n2\n');
    expect(w.byteLength).toBe(10);
    w.reset();
    expect(w.text()).toBe("");
  });

  it("throws on misuse", () => {
    const w = new JsonWriter();
    expect(() => w.key("a")).toThrow("JsonWriter: a key is only allowed in an object");
    expect(() => w.endArray()).toThrow("JsonWriter: endArray without an open array");
    expect(() => w.endRecord()).toThrow("JsonWriter: endRecord needs one complete");
    w.integer(1);
    expect(() => w.integer(2)).toThrow("JsonWriter: one top-level value per record");
    w.reset();
    w.beginObject();
    expect(() => w.integer(1)).toThrow("JsonWriter: an object member needs a key first");
    w.key("a");
    expect(() => w.endObject()).toThrow("JsonWriter: endObject without an open object");
    expect(() => w.key("b")).toThrow("JsonWriter: a key is only allowed");
  });
});
