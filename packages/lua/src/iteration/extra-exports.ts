import type { LuaState } from "../module";
import type { LuaExports } from "../wasm-exports";

/**
 * The raw C API exports this area calls beyond those the VM core types in LuaExports. wasmoon's
 * wasm instance exports them (checked at run time); typing them here keeps the core's export
 * list untouched.
 */
export interface IterationExports {
  /** `lua_rawlen`: the raw length (a table's border, ignoring `__len`), as a 64-bit unsigned. */
  lua_rawlen(L: LuaState, idx: number): bigint;
  /** `lua_rawequal`: 1 when the values at the two indexes are primitively equal. */
  lua_rawequal(L: LuaState, index1: number, index2: number): number;
}

const views = new WeakMap<LuaExports, IterationExports>();

/** The typed view of {@link IterationExports} on `x`; throws if the instance lacks one of them. */
export function iterationExports(x: LuaExports): IterationExports {
  let view = views.get(x);
  if (view === undefined) {
    const record = x as unknown as Record<string, unknown>;
    const names = ["lua_rawlen", "lua_rawequal"] as const;
    const missing = names.filter((name) => typeof record[name] !== "function");
    if (missing.length > 0) {
      throw new Error(`wasmoon's wasm instance lacks the exports ${missing.join(", ")}`);
    }
    view = x as unknown as IterationExports;
    views.set(x, view);
  }
  return view;
}
