import { describe, expect, it } from "vitest";
import {
  checkUtf8,
  lossyText,
  stringValidUpTo,
  textAsBytes,
  textAsString,
  utf8ValidUpTo,
} from "./utf8";

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe("utf8ValidUpTo", () => {
  const cases: [string, Uint8Array, number][] = [
    ["empty", bytes(), 0],
    ["ASCII", bytes(0x61, 0x62), 2],
    ["NUL is valid", bytes(0x00, 0x61), 2],
    ["2-byte é", bytes(0xc3, 0xa9), 2],
    ["3-byte €", bytes(0xe2, 0x82, 0xac), 3],
    ["4-byte 😀", bytes(0xf0, 0x9f, 0x98, 0x80), 4],
    ["U+10FFFF", bytes(0xf4, 0x8f, 0xbf, 0xbf), 4],
    ["BOM", bytes(0xef, 0xbb, 0xbf), 3],
    ["lone continuation byte", bytes(0x61, 0x80, 0x61), 1],
    ["overlong 2-byte (C0 80)", bytes(0x61, 0xc0, 0x80), 1],
    ["overlong 2-byte (C1 BF)", bytes(0xc1, 0xbf), 0],
    ["overlong 3-byte (E0 80 80)", bytes(0xe0, 0x80, 0x80), 0],
    ["overlong 4-byte (F0 80 80 80)", bytes(0xf0, 0x80, 0x80, 0x80), 0],
    ["surrogate D800 (ED A0 80)", bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ["above U+10FFFF (F4 90 80 80)", bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ["F5 lead byte", bytes(0xf5, 0x80, 0x80, 0x80), 0],
    ["FF byte", bytes(0x61, 0x62, 0xff), 2],
    ["truncated 2-byte at the end", bytes(0x61, 0xc3), 1],
    ["truncated 3-byte at the end", bytes(0x61, 0xe2, 0x82), 1],
    ["truncated 4-byte at the end", bytes(0xf0, 0x9f, 0x98), 0],
    ["bad second byte in 3-byte", bytes(0xe2, 0x28, 0xa1), 0],
    ["bad third byte in 4-byte", bytes(0xf0, 0x9f, 0x28, 0x80), 0],
    ["valid then invalid later", bytes(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xc3, 0x28), 5],
  ];

  for (const [name, input, expected] of cases) {
    it(`${name} -> ${expected}`, () => {
      expect(utf8ValidUpTo(input)).toBe(expected);
    });
  }

  it("agrees with a fatal TextDecoder on 3,000 random byte strings", () => {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const longestValidPrefix = (input: Uint8Array): number => {
      for (let k = input.length; k > 0; k--) {
        try {
          decoder.decode(input.subarray(0, k));
          return k;
        } catch {
          // not valid up to k
        }
      }
      return 0;
    };
    // A fixed linear congruential generator, so the test is the same on every run.
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const interesting = [
      0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
    ];
    for (let round = 0; round < 3000; round++) {
      const length = next() % 12;
      const input = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        input[i] =
          next() % 2 === 0 ? (interesting[next() % interesting.length] ?? 0) : next() % 256;
      }
      expect(utf8ValidUpTo(input)).toBe(longestValidPrefix(input));
    }
  });
});

describe("stringValidUpTo", () => {
  it("is undefined for a well-formed string, astral characters included", () => {
    expect(stringValidUpTo("")).toBeUndefined();
    expect(stringValidUpTo("é😀\u0000\uFFFF")).toBeUndefined();
  });

  it("counts the UTF-8 bytes before the first lone surrogate", () => {
    expect(stringValidUpTo("\uD800")).toBe(0);
    expect(stringValidUpTo("ab\uDC00")).toBe(2);
    expect(stringValidUpTo("é😀\uD83D")).toBe(6);
    expect(stringValidUpTo("x\uDE00\uD83D")).toBe(1);
  });
});

describe("checkUtf8 and conversions", () => {
  it("reports the byte length of strings and bytes", () => {
    expect(checkUtf8("é😀")).toEqual({ ok: true, text: { value: "é😀", byteLength: 6 } });
    const input = bytes(0xc3, 0xa9);
    expect(checkUtf8(input)).toEqual({ ok: true, text: { value: input, byteLength: 2 } });
  });

  it("reports where invalid text stops being valid", () => {
    expect(checkUtf8("a\uD800")).toEqual({ ok: false, validUpTo: 1 });
    expect(checkUtf8(bytes(0x61, 0x62, 0x80))).toEqual({ ok: false, validUpTo: 2 });
  });

  it("converts both ways and keeps a BOM", () => {
    const text = { value: bytes(0xef, 0xbb, 0xbf, 0x61), byteLength: 4 };
    expect(textAsString(text)).toBe("\uFEFFa");
    expect([...textAsBytes({ value: "\uFEFFa", byteLength: 4 })]).toEqual([0xef, 0xbb, 0xbf, 0x61]);
    expect(lossyText(bytes(0x61, 0xff))).toBe("a\uFFFD");
  });
});
