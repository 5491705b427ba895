import type { LuaRuntime } from "../lua";
import ENGINE_CORE_LUA from "./engine.lua";
import PROSE_LUA from "./prose.lua";
import REQUIRE_LUA from "./require.lua";
import SEAL_LUA from "./seal.lua";

/**
 * Engine Lua, run through `LuaVm.runPrivileged` so it can capture the private originals of
 * `load`, `rawget`, `setmetatable`, … in upvalues prompt code can never reach. The host side is
 * one host function `H(op, ...)` (globals/install-engine-lua.ts).
 *
 * The core (engine.lua) runs once per section VM and stays small: it serves `prose` and `argv`
 * through the Engine guard on `_G` and installs `require`. The prose renderer (prose.lua),
 * argv's sealed view (seal.lua) and `require` itself (require.lua) are parts loaded on first use
 * (`H('code', name)`), so a section that never reads prose, argv or a library pays only for the
 * core. Each chunk is named after its file (`@runvil/{file}`), so its frames in a traceback read
 * `runvil/require.lua:{line}:`, the file's own lines.
 */

/** The chunk name the Engine Lua core (engine.lua) runs under. */
export const ENGINE_LUA_CHUNK_NAME = "@runvil/engine.lua";

/** The parts the core loads on first use, by name (each the file `{name}.lua`). */
export const ENGINE_LUA_PARTS = {
  prose: PROSE_LUA,
  seal: SEAL_LUA,
  require: REQUIRE_LUA,
} as const;

/** A part's name. */
export type EngineLuaPart = keyof typeof ENGINE_LUA_PARTS;

/** The core and every part, compiled once per runtime. */
export interface EngineLuaBytecode {
  readonly core: Uint8Array;
  readonly parts: Readonly<Record<EngineLuaPart, Uint8Array>>;
}

const compiled = new WeakMap<LuaRuntime, EngineLuaBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the Engine's own Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The Engine Lua's bytecode, compiled once per runtime. */
export function engineLuaBytecode(runtime: LuaRuntime): EngineLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, ENGINE_CORE_LUA, ENGINE_LUA_CHUNK_NAME),
      parts: {
        prose: compile(runtime, PROSE_LUA, "@runvil/prose.lua"),
        seal: compile(runtime, SEAL_LUA, "@runvil/seal.lua"),
        require: compile(runtime, REQUIRE_LUA, "@runvil/require.lua"),
      },
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
