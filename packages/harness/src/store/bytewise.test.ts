import { describe, expect, it } from "vitest";
import { compareBytewise, sortBytewise } from "./bytewise";

const utf8Order = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

describe("compareBytewise", () => {
  it("puts U+E000-U+FFFF before astral characters, unlike the default sort", () => {
    const paths = ["😀", "\uFFFD", "\uE000", "z"];
    expect([...paths].sort()).toEqual(["z", "😀", "\uE000", "\uFFFD"]);
    expect(sortBytewise([...paths])).toEqual(["z", "\uE000", "\uFFFD", "😀"]);
  });

  it("orders prefixes first and upper case before lower case", () => {
    expect(sortBytewise(["ab", "a", "B", "a/b", "a b", "a.b"])).toEqual([
      "B",
      "a",
      "a b",
      "a.b",
      "a/b",
      "ab",
    ]);
  });

  it("agrees with comparing UTF-8 bytes", () => {
    const samples = [
      "",
      "a",
      "é",
      "\u07FF",
      "\u0800",
      "\uD7FF",
      "\uE000",
      "\uFFFF",
      "𐀀",
      "😀",
      "􏿿",
      "a😀",
      "a\uFFFF",
    ];
    for (const a of samples) {
      for (const b of samples) {
        expect(Math.sign(compareBytewise(a, b))).toBe(Math.sign(utf8Order(a, b)));
      }
    }
  });
});
