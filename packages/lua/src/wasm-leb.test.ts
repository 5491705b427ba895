import { describe, expect, it } from "vitest";
import { leb, readLeb, sleb, wasmName } from "./wasm-leb";

describe("wasm LEB128", () => {
  it("writes unsigned numbers in 7-bit groups, low first, the high bit marking more", () => {
    expect(leb(0)).toEqual([0x00]);
    expect(leb(127)).toEqual([0x7f]);
    expect(leb(128)).toEqual([0x80, 0x01]);
    expect(leb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(leb(65536)).toEqual([0x80, 0x80, 0x04]);
    expect(leb(0xffffffff)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
  });

  it("writes signed numbers with the sign in bit 6 of the last byte", () => {
    expect(sleb(0)).toEqual([0x00]);
    expect(sleb(63)).toEqual([0x3f]);
    expect(sleb(64)).toEqual([0xc0, 0x00]);
    expect(sleb(-1)).toEqual([0x7f]);
    expect(sleb(-64)).toEqual([0x40]);
    expect(sleb(-65)).toEqual([0xbf, 0x7f]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
  });

  it("reads back what it writes, with the offset after the number", () => {
    for (const value of [0, 1, 127, 128, 300, 16384, 624485, 65536, 0xffffffff]) {
      const bytes = Uint8Array.from([0xaa, ...leb(value), 0x55]);
      expect(readLeb(bytes, 1)).toEqual([value, 1 + leb(value).length]);
    }
  });

  it("stops a number cut off by the end of the bytes at that end", () => {
    expect(readLeb(Uint8Array.from([0x80, 0x80]), 0)).toEqual([0, 2]);
    expect(readLeb(Uint8Array.from([0xff]), 0)).toEqual([127, 1]);
  });

  it("writes a name as its length, then its bytes", () => {
    expect(wasmName("env")).toEqual([3, 0x65, 0x6e, 0x76]);
    expect(wasmName("")).toEqual([0]);
  });
});
