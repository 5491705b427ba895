import type { LuaRuntime } from "../lua";
import { namespaceMetatableText } from "./tool-messages";
import TOOLS_CORE_LUA from "./tools.lua";
import TOOLS_IMPL_LUA from "./tools-impl.lua";

/**
 * The Engine Lua behind the `tools` and `packs` globals (docs/design/tools-globals.md). The core
 * (tools.lua), run once per section VM through `LuaVm.runPrivileged` with the private table, the
 * host function `H(op, ...)` and {@link TOOLS_CORE_ARGS}, installs `tools` and `packs` as sealed,
 * empty tables; the implementation of every member (tools-impl.lua) loads on the first read of
 * any member (`H('code')` gives its bytecode and the texts it needs).
 */

/** What the core gets after `H`: what getmetatable answers for `tools` and for `packs`. */
export const TOOLS_CORE_ARGS: readonly string[] = [
  namespaceMetatableText("tools"),
  namespaceMetatableText("packs"),
];

/** The chunk name the tools core (tools.lua) runs under: frames read `runvil/tools.lua:{line}:`. */
export const TOOLS_LUA_CHUNK_NAME = "@runvil/tools.lua";

/** The chunk name of the implementation (tools-impl.lua). */
export const TOOLS_IMPL_CHUNK_NAME = "@runvil/tools-impl.lua";

/** The core and the implementation, compiled once per runtime. */
export interface ToolsLuaBytecode {
  readonly core: Uint8Array;
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, ToolsLuaBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the tools Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The tools Lua's bytecode, compiled once per runtime. */
export function toolsLuaBytecode(runtime: LuaRuntime): ToolsLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, TOOLS_CORE_LUA, TOOLS_LUA_CHUNK_NAME),
      impl: compile(runtime, TOOLS_IMPL_LUA, TOOLS_IMPL_CHUNK_NAME),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
