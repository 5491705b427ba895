import type { LuaRuntime } from "../lua";
import MESSAGES_IMPL_LUA from "./messages-impl.lua";

/**
 * The Engine Lua behind the `messages` global (docs/design/messages.md): messages-impl.lua, the
 * list, its record views and its methods, loaded on the first read of `messages` (which the `_G`
 * guard serves, lazy-globals.lua) with the kit lazy-globals.lua builds (`H('code')` gives its
 * bytecode and the texts it needs).
 */

/** The chunk name of the implementation (messages-impl.lua). */
export const MESSAGES_IMPL_CHUNK_NAME = "@runvil/messages-impl.lua";

/** The implementation, compiled once per runtime. */
export interface MessagesLuaBytecode {
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, MessagesLuaBytecode>();

/** The messages Lua's bytecode, compiled once per runtime. */
export function messagesLuaBytecode(runtime: LuaRuntime): MessagesLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    const result = runtime.compile(MESSAGES_IMPL_LUA, MESSAGES_IMPL_CHUNK_NAME);
    if (!result.ok) throw new Error(`the messages Lua does not compile: ${result.diagnostic}`);
    bytecode = { impl: result.bytecode };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}
