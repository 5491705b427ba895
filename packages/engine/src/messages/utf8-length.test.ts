import { describe, expect, it } from "vitest";
import { utf8Length } from "./utf8-length";

const encoder = new TextEncoder();

describe("utf8Length", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["é", 2],
    ["€", 3],
    ["😀", 4],
    ["a😀é€", 10],
  ])("counts %j as %i bytes, as TextEncoder does", (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(encoder.encode(text).length).toBe(bytes);
  });

  it("counts a lone surrogate as the 3 bytes of U+FFFD", () => {
    for (const text of ["\ud800", "\udc00", "a\ud800b", "\ud800\ud800"]) {
      expect(utf8Length(text)).toBe(encoder.encode(text).length);
    }
  });
});
