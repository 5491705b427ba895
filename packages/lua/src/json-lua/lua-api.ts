/**
 * The raw Lua C API calls the json area uses beyond the VM core's typed set, and the Engine's
 * type names.
 */

import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { LuaKernel } from "../vm/kernel";
import type { LuaExports } from "../wasm-exports";

/**
 * The type name every Engine argument error uses for the value at `idx`: Lua's `type()` name,
 * except that an integer reads `integer`, a float `number`, and a light userdata (json.null)
 * `lightuserdata`. An absent argument reads `nil`.
 */
export function engineTypeName(x: LuaExports, L: LuaState, idx: number): string {
  const tag = x.lua_type(L, idx);
  switch (tag) {
    case LuaTypeTag.BOOLEAN:
      return "boolean";
    case LuaTypeTag.LIGHTUSERDATA:
      return "lightuserdata";
    case LuaTypeTag.NUMBER:
      return x.lua_isinteger(L, idx) !== 0 ? "integer" : "number";
    case LuaTypeTag.STRING:
      return "string";
    case LuaTypeTag.TABLE:
      return "table";
    case LuaTypeTag.FUNCTION:
      return "function";
    case LuaTypeTag.USERDATA:
      return "userdata";
    case LuaTypeTag.THREAD:
      return "thread";
    default:
      return "nil";
  }
}

/** Bytes of one Lua stack slot (a StackValue) in this build. */
const SLOT_BYTES = 16;

/**
 * Makes room for `slots` more values on `L`'s stack, like `lua_checkstack`, but raising Lua's own
 * memory error (`not enough memory`, LUA_ERRMEM) when it cannot, never another error.
 *
 * Lua 5.4 grows a stack with its emergency collection switched off, so `lua_checkstack` fails
 * when the heap is full of garbage (say, just after a decode ran out of memory). In that case
 * this allocates a block as large as the growth: that allocation runs the emergency collection
 * (or raises the memory error when the heap is full of live data), after which the stack grows.
 * If it still cannot, it asks for more than `limitBytes`, which the limit allocator refuses.
 */
export function ensureStack(x: LuaExports, L: LuaState, slots: number, limitBytes: number): void {
  if (x.lua_checkstack(L, slots) !== 0) return;
  x.lua_newuserdatauv(L, slots * SLOT_BYTES * 2 + 1024, 0);
  x.lua_settop(L, -2);
  if (x.lua_checkstack(L, slots) !== 0) return;
  x.lua_newuserdatauv(L, limitBytes + 1, 0);
  throw new Error("the Lua stack cannot grow");
}

/**
 * Pushes the constant ASCII `name` (a field or metamethod name of the package's own) as a Lua
 * string, from a C string the kernel keeps for the process: no UTF-8 encoding per push.
 */
export function pushName(kernel: LuaKernel, L: LuaState, name: string): void {
  kernel.x.lua_pushlstring(L, kernel.cString(name), name.length);
}
