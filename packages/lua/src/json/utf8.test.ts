import { describe, expect, it } from "vitest";
import {
  compareBytes,
  compareUtf8Order,
  decodeUtf8Lossy,
  isValidUtf8,
  sortKeysBytewise,
  utf8Step,
  utf8ValidUpTo,
} from "./utf8";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("UTF-8 validation", () => {
  it("accepts well-formed text, noncharacters included", () => {
    expect(isValidUtf8(bytes("héllo € \u{1f30a} \uffff \u{10ffff}"))).toBe(true);
    expect(isValidUtf8(new Uint8Array([]))).toBe(true);
  });

  it("refuses overlong forms, surrogates, code points past U+10FFFF and truncation", () => {
    expect(utf8ValidUpTo(new Uint8Array([0x61, 0xc0, 0x80]))).toBe(1);
    expect(utf8ValidUpTo(new Uint8Array([0xe0, 0x80, 0x80]))).toBe(0);
    expect(utf8ValidUpTo(new Uint8Array([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2);
    expect(utf8ValidUpTo(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(utf8ValidUpTo(new Uint8Array([0xf0, 0x9f, 0x8c]))).toBe(0);
    expect(utf8ValidUpTo(new Uint8Array([0x80]))).toBe(0);
    expect(utf8ValidUpTo(new Uint8Array([0xff]))).toBe(0);
  });

  it("steps over maximal subparts exactly as TextDecoder replaces them", () => {
    let seed = 99;
    const pool = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf];
    pool.push(0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff);
    for (let round = 0; round < 2000; round++) {
      const b = new Uint8Array(1 + (round % 9));
      for (let i = 0; i < b.length; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        b[i] = pool[seed % pool.length] as number;
      }
      let text = "";
      let i = 0;
      while (i < b.length) {
        const step = utf8Step(b, i, b.length);
        if (step > 0) {
          text += new TextDecoder().decode(b.subarray(i, i + step));
          i += step;
        } else {
          text += "\ufffd";
          i -= step;
        }
      }
      expect(text, Array.from(b).join(",")).toBe(decodeUtf8Lossy(b));
    }
  });
});

describe("key order", () => {
  it("compares byte strings bytewise, a prefix first", () => {
    expect(compareBytes(bytes("a"), bytes("b"))).toBeLessThan(0);
    expect(compareBytes(bytes("B"), bytes("a"))).toBeLessThan(0);
    expect(compareBytes(bytes("ab"), bytes("a"))).toBeGreaterThan(0);
    expect(compareBytes(bytes("x"), bytes("x"))).toBe(0);
    expect(compareBytes(new Uint8Array([0xff]), bytes("z"))).toBeGreaterThan(0);
    expect(
      sortKeysBytewise([bytes("b"), bytes("B"), bytes("a")]).map((k) => decodeUtf8Lossy(k)),
    ).toEqual(["B", "a", "b"]);
  });

  it("orders JS strings as their UTF-8 bytes, astral characters after U+FFFF", () => {
    const keys = ["\u{1f30a}", "\uffff", "\ue000", "z", "é", "Z", "\u{10000}"];
    const byBytes = [...keys].sort((a, b) => compareBytes(bytes(a), bytes(b)));
    expect([...keys].sort(compareUtf8Order)).toEqual(byBytes);
    expect(byBytes).toEqual(["Z", "z", "é", "\ue000", "\uffff", "\u{10000}", "\u{1f30a}"]);
  });
});
