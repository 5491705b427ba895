import { beforeAll, describe, expect, it } from "vitest";
import { loadLuaModule, luaInstanceOf } from "../module";
import { decodeUtf8, LuaKernel } from "./kernel";

let kernel: LuaKernel;

beforeAll(async () => {
  const module = await loadLuaModule();
  kernel = new LuaKernel(module, luaInstanceOf(module));
});

describe("LuaKernel strings", () => {
  it("round-trips text with NUL and non-ASCII bytes, short and past the scratch size", () => {
    const cell = kernel.malloc(12);
    kernel.heap.u32().set([0, 0xffff_ffff, 0], cell >>> 2);
    const L = kernel.x.lua_newstate(kernel.allocator, cell);
    try {
      for (const text of ["", "a\u0000é→世🙂", "x".repeat(70_000), "é".repeat(40_000)]) {
        kernel.pushText(L, text);
        expect(kernel.readText(L, -1)).toBe(text);
        kernel.x.lua_settop(L, 0);
      }
      const bytes = new Uint8Array([0xff, 0x00, 0x41]);
      kernel.pushBytes(L, bytes);
      expect(kernel.readBytes(L, -1)).toEqual(bytes);
      expect(kernel.readText(L, -1)).toBe("\ufffd\u0000A");
    } finally {
      kernel.x.lua_close(L);
      kernel.x.free(cell);
    }
  });

  it("keeps one C string per constant name", () => {
    const first = kernel.cString("rep");
    expect(kernel.cString("rep")).toBe(first);
    expect(kernel.heap.u8().slice(first, first + 4)).toEqual(new Uint8Array([0x72, 0x65, 0x70, 0]));
  });
});

describe("decodeUtf8", () => {
  it("decodes ASCII directly and defers anything else to TextDecoder", () => {
    const heap = new TextEncoder().encode("plain ascii|é|\ufeffbom");
    expect(decodeUtf8(heap, 0, 11)).toBe("plain ascii");
    expect(decodeUtf8(heap, 12, 2)).toBe("é");
    expect(decodeUtf8(heap, 15, 6)).toBe("\ufeffbom");
    expect(decodeUtf8(new Uint8Array([0x61, 0xc3]), 0, 2)).toBe("a\ufffd");
  });
});
