import type { LuaRuntime } from "../lua";
import MESSAGES_CORE_LUA from "./messages.lua";
import MESSAGES_IMPL_LUA from "./messages-impl.lua";

/**
 * The Engine Lua behind the `messages` global (docs/design/messages.md). The core
 * (messages.lua), run once per section VM through `LuaVm.runPrivileged` with the private table
 * and the host function `H(op, ...)`, has the `_G` guard serve `messages`; the list, its record
 * views and its methods (messages-impl.lua) load on the first read (`H('code')` gives their
 * bytecode and the texts they need).
 */

/** The chunk name the messages core runs under: frames read `runvil/messages.lua:{line}:`. */
export const MESSAGES_LUA_CHUNK_NAME = "@runvil/messages.lua";

/** The chunk name of the implementation (messages-impl.lua). */
export const MESSAGES_IMPL_CHUNK_NAME = "@runvil/messages-impl.lua";

/** The core and the implementation, compiled once per runtime. */
export interface MessagesLuaBytecode {
  readonly core: Uint8Array;
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, MessagesLuaBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the messages Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/** The messages Lua's bytecode, compiled once per runtime. */
export function messagesLuaBytecode(runtime: LuaRuntime): MessagesLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      core: compile(runtime, MESSAGES_CORE_LUA, MESSAGES_LUA_CHUNK_NAME),
      impl: compile(runtime, MESSAGES_IMPL_LUA, MESSAGES_IMPL_CHUNK_NAME),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
