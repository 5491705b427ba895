import { Compiler } from "../compile";
import type { LuaModule } from "../module";
import { RawLua } from "../raw-api";
import ITERATION_LUA from "./pairs.lua";

/** The chunk name of pairs.lua (tracebacks show pairs' frame as `runvil/pairs.lua:{line}:`). */
export const ITERATION_CHUNK_NAME = "@runvil/pairs.lua";

/** The private-table field that hands the order C function to pairs.lua (its second argument). */
export const ORDER_PRIVATE_KEY = "iteration_order";

const compiled = new WeakMap<LuaModule, Uint8Array>();

/**
 * The bytecode of pairs.lua (the Engine Lua that installs the deterministic `pairs`, run once per
 * VM with the private table and {@link ORDER_PRIVATE_KEY} as its arguments), compiled once per wasm module and reused by every VM
 * (loading bytecode is several times cheaper than parsing the source).
 */
export function iterationBytecode(module: LuaModule): Uint8Array {
  let bytecode = compiled.get(module);
  if (bytecode === undefined) {
    const result = new Compiler(new RawLua(module)).compile(ITERATION_LUA, ITERATION_CHUNK_NAME);
    if (!result.ok) throw new Error(`runvil/pairs.lua does not compile: ${result.diagnostic}`);
    bytecode = result.bytecode;
    compiled.set(module, bytecode);
  }
  return bytecode;
}
