import type { LuaRuntime } from "../lua";
import PROMPT_CORE_LUA from "./prompt.lua";
import PROMPT_READS_IMPL_LUA from "./prompt-reads.lua";

/**
 * The Engine Lua behind the `prompt` global (docs/design/prompt-reads.md): the core (prompt.lua),
 * run once per VM through `LuaVm.runPrivileged` with the private table, the host function
 * `H(op, ...)` (globals/prompt-reads.ts) and the text `getmetatable(prompt)` returns, installs
 * `prompt` as a sealed, empty table; the implementation (prompt-reads.lua) loads on the first
 * member read.
 */

/** The chunk name the prompt reads' core (prompt.lua) runs under. */
export const PROMPT_READS_LUA_CHUNK_NAME = "@runvil/prompt.lua";

/** The core and the implementation, compiled once per runtime. */
export interface PromptReadsBytecode {
  readonly core: Uint8Array;
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, PromptReadsBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the Engine's own Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The prompt reads' Lua, compiled once per runtime. */
export function promptReadsLuaBytecode(runtime: LuaRuntime): PromptReadsBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, PROMPT_CORE_LUA, PROMPT_READS_LUA_CHUNK_NAME),
      impl: compile(runtime, PROMPT_READS_IMPL_LUA, "@runvil/prompt-reads.lua"),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
