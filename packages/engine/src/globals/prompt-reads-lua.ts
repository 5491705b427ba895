import type { LuaRuntime } from "../lua";
import PROMPT_READS_IMPL_LUA from "./prompt-reads.lua";

/**
 * The Engine Lua behind the `prompt` global (docs/design/prompt-reads.md): prompt-reads.lua, the
 * members, loaded on the first member read with the kit lazy-globals.lua builds (the host
 * function `H(op, ...)` of globals/prompt-reads.ts gives its bytecode with `H('code', 'reads')`).
 */

/** The chunk name of the implementation (prompt-reads.lua). */
export const PROMPT_READS_IMPL_CHUNK_NAME = "@runvil/prompt-reads.lua";

/** The implementation, compiled once per runtime. */
export interface PromptReadsBytecode {
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, PromptReadsBytecode>();

/** The prompt reads' Lua, compiled once per runtime. */
export function promptReadsLuaBytecode(runtime: LuaRuntime): PromptReadsBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    const result = runtime.compile(PROMPT_READS_IMPL_LUA, PROMPT_READS_IMPL_CHUNK_NAME);
    if (!result.ok) throw new Error(`the Engine's own Lua does not compile: ${result.diagnostic}`);
    bytecode = { impl: result.bytecode };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
