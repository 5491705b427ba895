import type { LuaRuntime } from "../lua";
import MODELS_CORE_LUA from "./models.lua";
import MODELS_IMPL_LUA from "./models-impl.lua";

/**
 * The Engine Lua behind the `models` global and model handles (docs/design/models.md §6–8). The
 * core (models.lua), run once per section VM through `LuaVm.runPrivileged` with the private
 * table, the host function `H(op, ...)` and what getmetatable answers for `models`, installs
 * `models` as a sealed, empty table; the members and the handles (models-impl.lua) load on the
 * first member read (`H('code')` gives their bytecode and the texts they need). The model loop
 * plugs its members in through `models_kit.extra` (see models.lua).
 */

/** The chunk name the models core runs under: frames read `runvil/models.lua:{line}:`. */
export const MODELS_LUA_CHUNK_NAME = "@runvil/models.lua";

/** The chunk name of the implementation (models-impl.lua). */
export const MODELS_IMPL_CHUNK_NAME = "@runvil/models-impl.lua";

/** The core and the implementation, compiled once per runtime. */
export interface ModelsLuaBytecode {
  readonly core: Uint8Array;
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, ModelsLuaBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the models Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The models Lua's bytecode, compiled once per runtime. */
export function modelsLuaBytecode(runtime: LuaRuntime): ModelsLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, MODELS_CORE_LUA, MODELS_LUA_CHUNK_NAME),
      impl: compile(runtime, MODELS_IMPL_LUA, MODELS_IMPL_CHUNK_NAME),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
