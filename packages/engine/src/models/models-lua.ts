import type { LuaRuntime } from "../lua";
import MODELS_IMPL_LUA from "./models-impl.lua";

/**
 * The Engine Lua behind the `models` global and model handles (docs/design/models.md §6–8):
 * models-impl.lua, the members and the handles, loaded on the first member read with the kit
 * lazy-globals.lua builds (`H('code')` gives its bytecode and the texts it needs). The model loop
 * plugs its members in through the kit's `extra` (see lazy-globals.lua).
 */

/** The chunk name of the implementation (models-impl.lua). */
export const MODELS_IMPL_CHUNK_NAME = "@runvil/models-impl.lua";

/** The implementation, compiled once per runtime. */
export interface ModelsLuaBytecode {
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, ModelsLuaBytecode>();

/** The models Lua's bytecode, compiled once per runtime. */
export function modelsLuaBytecode(runtime: LuaRuntime): ModelsLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    const result = runtime.compile(MODELS_IMPL_LUA, MODELS_IMPL_CHUNK_NAME);
    if (!result.ok) throw new Error(`the models Lua does not compile: ${result.diagnostic}`);
    bytecode = { impl: result.bytecode };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
