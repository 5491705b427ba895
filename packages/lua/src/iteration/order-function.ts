import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "../vm/host-functions";
import { TABLE_METATABLE } from "./lua-layout";
import type { OrderRuntime } from "./order-runtime";

/**
 * The C function behind pairs (see pairs.lua): `order(t)` gives `keys, n, border` for a
 * table without a `__pairs` metafield, `false, mm` when `t` has one (looked up on the real
 * metatable, raw, as `luaL_getmetafield` does), and nothing for any other value.
 */
export function createOrderFunction(runtime: OrderRuntime): RawCFunction {
  const { kernel } = runtime.state;
  const { x, heap } = kernel;
  const pairsName = kernel.cString("__pairs");
  return (L: LuaState): number => {
    const type = x.lua_type(L, 1);
    if (type === LuaTypeTag.TABLE) {
      const table = x.lua_topointer(L, 1);
      if (
        (heap.u32()[(table + TABLE_METATABLE) >>> 2] ?? 0) !== 0 &&
        x.luaL_getmetafield(L, 1, pairsName) !== LuaTypeTag.NIL
      ) {
        return metamethodFound(runtime, L);
      }
      x.lua_settop(L, 1);
      const entry = runtime.orderOf(L, "exact");
      x.lua_pushinteger(L, BigInt(entry.keys.count));
      x.lua_pushinteger(L, BigInt(entry.border));
      return 3;
    }
    if (type !== LuaTypeTag.NONE && x.luaL_getmetafield(L, 1, pairsName) !== LuaTypeTag.NIL) {
      return metamethodFound(runtime, L);
    }
    return 0;
  };
}

/** Returns `false, mm` with the metafield on top of the stack. */
function metamethodFound(runtime: OrderRuntime, L: LuaState): number {
  const { x } = runtime.state.kernel;
  x.lua_pushboolean(L, 0);
  x.lua_rotate(L, -2, 1);
  return 2;
}
