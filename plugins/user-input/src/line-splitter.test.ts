import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter";

describe("LineSplitter", () => {
  it("splits on \\n and drops one \\r before it, keeping everything else", () => {
    const splitter = new LineSplitter();
    expect(splitter.push("  a\tb  \r\nc\r\r\n\nd")).toEqual(["  a\tb  ", "c\r", ""]);
    expect(splitter.end()).toBe("d");
    expect(splitter.end()).toBeUndefined();
  });

  it("joins lines split across chunks, a \\r\\n and a UTF-8 character included", () => {
    const splitter = new LineSplitter();
    const bytes = new TextEncoder().encode("caf\u00e9\r\nnext\n");
    expect(splitter.push(bytes.subarray(0, 4))).toEqual([]);
    expect(splitter.push(bytes.subarray(4, 6))).toEqual([]);
    expect(splitter.push(bytes.subarray(6))).toEqual(["caf\u00e9", "next"]);
    expect(splitter.end()).toBeUndefined();
  });
});
