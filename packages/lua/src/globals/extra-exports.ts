import type { LuaState } from "../module";
import type { LuaExports } from "../wasm-exports";

/**
 * The three raw C API exports this area calls beyond those the VM core types in LuaExports.
 * They are exported by wasmoon's wasm instance (checked at run time); typing them here keeps
 * the core's export list untouched.
 */
export interface GlobalsExports {
  /** `lua_rawequal`: 1 when the values at the two indexes are primitively equal. */
  lua_rawequal(L: LuaState, index1: number, index2: number): number;
  /** `lua_getmetatable`: pushes the value's real metatable and returns 1, or pushes nothing and returns 0. */
  lua_getmetatable(L: LuaState, objindex: number): number;
  /** `luaL_checkany`: raises `bad argument #arg to '{name}' (value expected)` when the argument is absent. */
  luaL_checkany(L: LuaState, arg: number): void;
}

const cache = new WeakMap<LuaExports, GlobalsExports>();

/** The typed view of {@link GlobalsExports} on `x`; throws if the instance lacks one of them. */
export function globalsExports(x: LuaExports): GlobalsExports {
  let view = cache.get(x);
  if (view === undefined) {
    const record = x as unknown as Record<string, unknown>;
    const names = ["lua_rawequal", "lua_getmetatable", "luaL_checkany"] as const;
    const missing = names.filter((name) => typeof record[name] !== "function");
    if (missing.length > 0) {
      throw new Error(`wasmoon's wasm instance lacks the exports ${missing.join(", ")}`);
    }
    view = x as unknown as GlobalsExports;
    cache.set(x, view);
  }
  return view;
}
