import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "./host-functions";
import type { VmState } from "./vm-state";

/** The error setmetatable raises for a metatable with a `__gc` field (after a position prefix). */
export const FINALIZERS_MESSAGE =
  "setmetatable: finalizers (__gc) are not available in the sandbox";

/**
 * setmetatable that refuses finalizers. Lua runs `__gc` metamethods with hooks switched off
 * (`allowhook = 0` in GCTM), so a finalizer that loops could never be cancelled and would hang
 * the collector or `lua_close`; the spec's sandbox refuses them outright.
 *
 * Everything else is stock `luaB_setmetatable`, done with the same C API calls on this closure's
 * own frame so that its errors read exactly as stock Lua's, position included: argument 1 must
 * be a table, argument 2 nil or a table (`bad argument #2 to 'setmetatable' (nil or table
 * expected)`), and a `__metatable` field protects. The `__gc` check reads the metatable raw, as
 * Lua does when it marks an object for finalization (which only happens here: a `__gc` field
 * added to the metatable later has no effect). The `_G`-specific rules (`__mode`, the guard's
 * handlers) belong to the `_G` guard, which wraps this function.
 */
export function createSetmetatableGuard(state: VmState): RawCFunction {
  return (L: LuaState): number => {
    const { kernel } = state;
    const { x } = kernel;
    const type = x.lua_type(L, 2);
    x.luaL_checktype(L, 1, LuaTypeTag.TABLE);
    if (type !== LuaTypeTag.NIL && type !== LuaTypeTag.TABLE) {
      x.luaL_typeerror(L, 2, kernel.cString("nil or table"));
    }
    if (type === LuaTypeTag.TABLE) {
      kernel.pushText(L, "__gc");
      if (x.lua_rawget(L, 2) !== LuaTypeTag.NIL) raiseAtCaller(state, L, FINALIZERS_MESSAGE);
      x.lua_settop(L, -2);
    }
    if (x.luaL_getmetafield(L, 1, kernel.cString("__metatable")) !== LuaTypeTag.NIL) {
      raiseAtCaller(state, L, "cannot change a protected metatable");
    }
    x.lua_settop(L, 2);
    x.lua_setmetatable(L, 1);
    return 1;
  };
}

/** `luaL_error(L, message)`: raises `message` prefixed with the calling line's position. */
function raiseAtCaller(state: VmState, L: LuaState, message: string): never {
  const { kernel } = state;
  kernel.x.luaL_where(L, 1);
  kernel.pushText(L, message);
  kernel.x.lua_concat(L, 2);
  kernel.x.lua_error(L);
  throw new Error("lua_error returned");
}
