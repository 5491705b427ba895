/**
 * The objects area: the one primitive Engine Lua needs to build opaque Engine values (Tool
 * objects, Pack objects, model handles) that prompt code sees as `userdata`. Lua 5.4 has no way
 * to make a full userdata from Lua (`newproxy` is gone), so this area adds a C function to the
 * VM's private table.
 */

import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import { addRawFunction, getRawField, pushRawClosure, setRawField } from "../state/raw-lua";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaKernel } from "../vm/kernel";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushPrivate } from "../vm/sandbox";

/**
 * The private table's field holding `new_userdata(metatable)`: a function that returns a new,
 * empty full userdata (no bytes, no user values) whose metatable is `metatable` (set raw, so a
 * `__metatable` field protects it from prompt code afterwards). Two calls never return equal
 * values, and a value is `==` only to itself, so one object per Engine thing gives identity.
 */
export const NEW_USERDATA_FIELD = "new_userdata";

const byKernel = new WeakMap<LuaKernel, RawCFunction>();

function newUserdataFunction(kernel: LuaKernel): RawCFunction {
  let fn = byKernel.get(kernel);
  if (fn === undefined) {
    const { x } = kernel;
    fn = (L: LuaState): number => {
      x.luaL_checktype(L, 1, LuaTypeTag.TABLE);
      x.lua_newuserdatauv(L, 0, 0);
      x.lua_pushvalue(L, 1);
      x.lua_setmetatable(L, -2);
      return 1;
    };
    byKernel.set(kernel, fn);
  }
  return fn;
}

/**
 * Puts `new_userdata` into the VM's private table (see {@link NEW_USERDATA_FIELD}) unless an
 * area did already; Engine Lua reads it from the private table `runPrivileged` passes as its
 * first argument. Idempotent and cheap (one function-table entry and one closure).
 */
export function ensureUserdataFactory(vm: LuaVm): void {
  const state = VmHandle.stateOf(vm);
  const { kernel } = state;
  const { x } = kernel;
  state.hostOp(() => {
    const { L } = state;
    pushPrivate(state, L);
    const P = x.lua_gettop(L);
    if (getRawField(kernel, L, P, NEW_USERDATA_FIELD) === LuaTypeTag.NIL) {
      const index = addRawFunction(state, NEW_USERDATA_FIELD, newUserdataFunction(kernel));
      pushRawClosure(kernel, L, index, 0);
      setRawField(kernel, L, P, NEW_USERDATA_FIELD);
    }
    x.lua_settop(L, P - 1);
  });
}
