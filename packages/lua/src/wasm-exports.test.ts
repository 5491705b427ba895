import { describe, expect, it } from "vitest";
import { loadLuaModule, luaInstanceOf } from "./module";
import { wasmApi } from "./wasm-api";
import { captureLuaInstance, probeLongjmp, type UnwindProbe } from "./wasm-exports";

describe("probeLongjmp", () => {
  it("flags emscripten's longjmp throw and still throws Infinity", () => {
    const env: Record<string, unknown> = {
      invoke_vii: () => undefined,
      _emscripten_throw_longjmp: () => {
        throw Infinity;
      },
    };
    const unwind: UnwindProbe = { inFlight: false };
    probeLongjmp({ env }, unwind);
    const thrower = env._emscripten_throw_longjmp as () => never;
    expect(thrower).toThrow();
    expect(unwind.inFlight).toBe(true);
    try {
      thrower();
    } catch (error) {
      expect(error).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it("wraps a thrower of another shape by calling it", () => {
    const calls: string[] = [];
    const env: Record<string, unknown> = {
      invoke_vii: () => undefined,
      _emscripten_throw_longjmp: function custom() {
        calls.push("custom");
        throw Number.POSITIVE_INFINITY;
      },
    };
    const unwind: UnwindProbe = { inFlight: false };
    probeLongjmp({ env }, unwind);
    expect(env._emscripten_throw_longjmp as () => never).toThrow();
    expect([unwind.inFlight, calls]).toEqual([true, ["custom"]]);
  });

  it("leaves import objects that are not emscripten's alone", () => {
    const thrower = () => undefined;
    const env: Record<string, unknown> = { _emscripten_throw_longjmp: thrower };
    probeLongjmp({ env }, { inFlight: false });
    probeLongjmp(undefined, { inFlight: false });
    probeLongjmp({ env: 3 }, { inFlight: false });
    expect(env._emscripten_throw_longjmp).toBe(thrower);
  });
});

describe("captureLuaInstance", () => {
  it("ignores instances without lua_newstate and restores WebAssembly.instantiate", async () => {
    const api = wasmApi();
    const before = api.instantiate;
    const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    const { loaded, candidates } = await captureLuaInstance(() => api.instantiate(empty, {}));
    expect("instance" in loaded).toBe(true);
    expect(candidates).toEqual([]);
    expect(api.instantiate).toBe(before);
  });

  it("caught wasmoon's own instance at load, with the module's memory", async () => {
    const module = await loadLuaModule();
    const { exports, unwind } = luaInstanceOf(module);
    expect(exports.memory.buffer).toBe(module.HEAPU8.buffer);
    expect(typeof exports.lua_resume).toBe("function");
    expect(unwind.inFlight).toBe(false);
  });
});
