import { beforeAll, describe, expect, it } from "vitest";
import { loadLuaModule } from "./module";
import { fromUtf8, LUA_REGISTRYINDEX, LuaStatus, LuaTypeTag, RawLua, toUtf8 } from "./raw-api";

let raw: RawLua;

beforeAll(async () => {
  raw = new RawLua(await loadLuaModule());
});

describe("toUtf8 / fromUtf8", () => {
  it("round-trips non-ASCII text and NUL", () => {
    const text = "a\u0000é→世🙂";
    expect(toUtf8(text)).toEqual(
      new Uint8Array([
        0x61, 0x00, 0xc3, 0xa9, 0xe2, 0x86, 0x92, 0xe4, 0xb8, 0x96, 0xf0, 0x9f, 0x99, 0x82,
      ]),
    );
    expect(fromUtf8(toUtf8(text))).toBe(text);
  });

  it("passes bytes through and decodes invalid UTF-8 as U+FFFD, keeping a BOM", () => {
    const bytes = new Uint8Array([0xff]);
    expect(toUtf8(bytes)).toBe(bytes);
    expect(fromUtf8(bytes)).toBe("\ufffd");
    expect(fromUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe("\ufeffA");
  });
});

describe("RawLua", () => {
  it("loads and reads back strings with NUL bytes through their byte length", () => {
    const { module } = raw;
    const L = module._luaL_newstate();
    try {
      const status = raw.loadBuffer(L, toUtf8("return 'x\\0é', 12"), "line 3", "t");
      expect(status).toBe(LuaStatus.OK);
      expect(module._lua_pcallk(L, 0, 2, 0, 0, 0)).toBe(LuaStatus.OK);
      expect(raw.toBytes(L, 1)).toEqual(new Uint8Array([0x78, 0x00, 0xc3, 0xa9]));
      expect(raw.toText(L, 1)).toBe("x\u0000é");
      expect(raw.toText(L, 2)).toBe("12");
      module._lua_settop(L, 0);
      module._lua_pushvalue(L, LUA_REGISTRYINDEX);
      expect(module._lua_type(L, -1)).toBe(LuaTypeTag.TABLE);
      expect(raw.toBytes(L, -1)).toBeNull();
    } finally {
      module._lua_close(L);
    }
  });

  it("passes the chunk name as UTF-8", () => {
    const { module } = raw;
    const L = module._luaL_newstate();
    try {
      expect(raw.loadBuffer(L, toUtf8("x ="), "bloc é", "t")).toBe(LuaStatus.ERRSYNTAX);
      expect(raw.toText(L, -1)).toBe(`[string "bloc é"]:1: unexpected symbol near <eof>`);
    } finally {
      module._lua_close(L);
    }
  });

  it("rejects NUL in C strings", () => {
    expect(() => raw.withCString("a\u0000b", () => 0)).toThrow(TypeError);
    expect(raw.withCString("key", (ptr) => raw.readBytes(ptr, 4))).toEqual(
      new Uint8Array([0x6b, 0x65, 0x79, 0x00]),
    );
  });
});
