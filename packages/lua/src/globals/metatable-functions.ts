import type { LuaState } from "../module";
import { LUA_REGISTRYINDEX, LuaTypeTag } from "../raw-api";
import { RIDX_GLOBALS, UPVALUE_2 } from "../vm/constants";
import type { RawCFunction } from "../vm/host-functions";
import { createSetmetatableGuard } from "../vm/setmetatable-guard";
import type { VmState } from "../vm/vm-state";
import { FINALIZERS_MESSAGE, PROTECTED_METATABLE_MESSAGE, WEAK_GLOBALS_MESSAGE } from "./messages";

/**
 * The slot of the guard state table `S` (upvalue 2 of both functions) that holds the author
 * metatable, or `false` while there is none. The slot always exists, so writing it never
 * allocates.
 */
export const AUTHOR_SLOT = 1n;

/** Fields of an author metatable that are never copied onto the guard. */
const NOT_COPIED = ["__index", "__newindex", "__metatable", "__mode"] as const;

/**
 * The sandbox's setmetatable, a C function (upvalue 2: the guard state `S`).
 *
 * On every value but `_G` (compared by raw identity) it is the VM core's setmetatable guard
 * (src/vm/setmetatable-guard.ts, reused as is): stock `luaB_setmetatable` with its own errors and
 * positions, plus the `__gc` refusal. On `_G` it never touches the Engine guard's place:
 * - argument 2 must be present and nil or a table (stock message);
 * - a `__gc` field is refused (finalizers), then a `__mode` field (`_G` never becomes weak), then
 *   any change while the current author metatable has a `__metatable` field;
 * - otherwise it builds a new guard table: the guard's own `__index`/`__newindex` plus a copy of
 *   every field of `mt` except `__index`, `__newindex`, `__metatable` and `__mode`; sets it as
 *   `_G`'s metatable; and records `mt` (or nothing, for nil) as the author metatable.
 * The new guard is complete before anything changes, so a refusal or a memory error records
 * nothing. It returns `_G`, and writes nothing into `mt`.
 */
export function createSandboxSetmetatable(state: VmState): RawCFunction {
  const stock = createSetmetatableGuard(state);
  const { kernel } = state;
  const { x } = kernel;
  return (L: LuaState): number => {
    if (!isGlobalTable(state, L)) return stock(L);
    const type = x.lua_type(L, 2);
    if (type !== LuaTypeTag.NIL && type !== LuaTypeTag.TABLE) {
      x.luaL_typeerror(L, 2, kernel.cString("nil or table"));
    }
    x.lua_settop(L, 2); // [G, mt]
    if (type === LuaTypeTag.TABLE) {
      if (rawField(state, L, 2, "__gc") !== LuaTypeTag.NIL) {
        raiseAtCaller(state, L, FINALIZERS_MESSAGE);
      }
      if (rawField(state, L, 2, "__mode") !== LuaTypeTag.NIL) {
        raiseAtCaller(state, L, WEAK_GLOBALS_MESSAGE);
      }
      x.lua_settop(L, 2);
    }
    x.lua_pushvalue(L, UPVALUE_2); // [G, mt, S]
    if (x.lua_rawgeti(L, 3, AUTHOR_SLOT) === LuaTypeTag.TABLE) {
      // [G, mt, S, author]
      if (rawField(state, L, 4, "__metatable") !== LuaTypeTag.NIL) {
        raiseAtCaller(state, L, PROTECTED_METATABLE_MESSAGE);
      }
    }
    x.lua_settop(L, 3);
    x.lua_createtable(L, 0, 4); // [G, mt, S, guard]
    if (type === LuaTypeTag.TABLE) copyFields(state, L, 2, 4);
    for (const name of NOT_COPIED) {
      kernel.pushText(L, name);
      if (name === "__index") x.lua_getfield(L, 3, kernel.cString("index"));
      else if (name === "__newindex") x.lua_getfield(L, 3, kernel.cString("newindex"));
      else x.lua_pushnil(L);
      x.lua_rawset(L, 4);
    }
    x.lua_setmetatable(L, 1); // [G, mt, S]
    if (type === LuaTypeTag.TABLE) x.lua_pushvalue(L, 2);
    else x.lua_pushboolean(L, 0);
    x.lua_rawseti(L, 3, AUTHOR_SLOT);
    x.lua_settop(L, 1);
    return 1;
  };
}

/**
 * The sandbox's getmetatable, a C function (upvalue 2: the guard state `S`). On `_G` it never
 * shows the Engine guard: nil while no author metatable is set, else the author metatable's
 * `__metatable` field when it has one, else the author metatable. On every other value it is
 * stock `luaB_getmetatable` (argument check included, `bad argument #1 to 'getmetatable' (value
 * expected)`), so `__metatable` protects as usual.
 */
export function createSandboxGetmetatable(state: VmState): RawCFunction {
  const { kernel } = state;
  const { x } = kernel;
  const ext = x;
  return (L: LuaState): number => {
    ext.luaL_checkany(L, 1);
    if (isGlobalTable(state, L)) {
      x.lua_settop(L, 1);
      x.lua_pushvalue(L, UPVALUE_2); // [G, S]
      if (x.lua_rawgeti(L, 2, AUTHOR_SLOT) !== LuaTypeTag.TABLE) {
        x.lua_pushnil(L);
        return 1;
      }
      // [G, S, author]
      if (rawField(state, L, 3, "__metatable") === LuaTypeTag.NIL) x.lua_settop(L, 3);
      return 1;
    }
    if (ext.lua_getmetatable(L, 1) === 0) {
      x.lua_pushnil(L);
      return 1;
    }
    x.luaL_getmetafield(L, 1, kernel.cString("__metatable"));
    return 1;
  };
}

/** Whether argument 1 is the global table itself (raw identity). */
function isGlobalTable(state: VmState, L: LuaState): boolean {
  const { x } = state.kernel;
  if (x.lua_type(L, 1) !== LuaTypeTag.TABLE) return false;
  x.lua_rawgeti(L, LUA_REGISTRYINDEX, RIDX_GLOBALS);
  const same = x.lua_rawequal(L, 1, -1) !== 0;
  x.lua_settop(L, -2);
  return same;
}

/** Pushes `t[name]` (raw) for the table at `index` and returns its type tag. */
function rawField(state: VmState, L: LuaState, index: number, name: string): number {
  state.kernel.pushText(L, name);
  return state.kernel.x.lua_rawget(L, index);
}

/** Copies every field of the table at `from` into the table at `to` (raw; absolute indexes). */
function copyFields(state: VmState, L: LuaState, from: number, to: number): void {
  const { x } = state.kernel;
  x.lua_pushnil(L);
  while (x.lua_next(L, from) !== 0) {
    x.lua_pushvalue(L, -2); // [k, v, k]
    x.lua_rotate(L, -2, 1); // [k, k, v]
    x.lua_rawset(L, to); // [k]
  }
}

/** `luaL_error(L, message)`: raises `message` after the calling line's position. */
function raiseAtCaller(state: VmState, L: LuaState, message: string): never {
  const { kernel } = state;
  kernel.x.luaL_where(L, 1);
  kernel.pushText(L, message);
  kernel.x.lua_concat(L, 2);
  kernel.x.lua_error(L);
  throw new Error("lua_error returned");
}
