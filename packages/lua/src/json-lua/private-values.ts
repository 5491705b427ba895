/**
 * The values json shares with the rest of the Engine through the VM's private table
 * (`registry["runvil.private"]`, the table Engine Lua receives as `...` in runPrivileged):
 * json.null, the list marker and the sealed-view map. They live there, never in the json table,
 * so reassigning a json field changes nothing about how a value encodes.
 */

import type { LuaState, Ptr } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { LuaKernel } from "../vm/kernel";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushPrivate } from "../vm/sandbox";
import type { VmState } from "../vm/vm-state";
import { pushName } from "./lua-api";

/** Private-table field holding json.null, the light userdata that stands for JSON null. */
export const JSON_NULL_FIELD = "json_null";

/**
 * Private-table field holding the list marker: the one metatable `{ __metatable = false }` per
 * VM that marks a table as a list (json.array, decoded arrays). A table is a marked list when
 * its metatable is this very table.
 */
export const JSON_LIST_MARKER_FIELD = "json_list_marker";

/**
 * Private-table field holding `sealed_targets`: a weak-keyed table mapping each sealed view (an
 * empty proxy table with a protected metatable) to the Lua table that holds its data. json.encode
 * reads a view through it; the views' owners (var, argv, ...) fill it.
 */
export const SEALED_TARGETS_FIELD = "sealed_targets";

/** Bytes of the process-wide cell whose address json.null holds. */
const NULL_CELL_NAME = "runvil json.null";

/**
 * The address json.null's light userdata holds. One per process (a cell that is never freed),
 * so json.null is the same value in every VM; a light userdata compares by address.
 */
export function jsonNullAddress(kernel: LuaKernel): Ptr {
  return kernel.cString(NULL_CELL_NAME);
}

/**
 * Pushes `t[name]` (raw) for the table at absolute index `table`, and returns its type tag.
 * The field name is a short constant, so pushing it never allocates after the first time.
 */
export function rawGetField(state: VmState, L: LuaState, table: number, name: string): number {
  pushName(state.kernel, L, name);
  return state.kernel.x.lua_rawget(L, table);
}

/** `t[name] = top` (raw) for the table at absolute index `table`; pops the value. */
function rawSetField(state: VmState, L: LuaState, table: number, name: string): void {
  const { x } = state.kernel;
  pushName(state.kernel, L, name);
  x.lua_rotate(L, -2, 1);
  x.lua_rawset(L, table);
}

/**
 * Creates, in the private table at absolute index `P`, whichever of json.null, the list marker
 * and `sealed_targets` is absent. Never replaces one that exists, so whichever area runs first
 * creates them and every area sees the same tables. Call with the memory limit lifted.
 */
export function ensurePrivateValuesAt(state: VmState, L: LuaState, P: number): void {
  const { kernel } = state;
  const { x } = kernel;
  if (rawGetField(state, L, P, JSON_NULL_FIELD) === LuaTypeTag.NIL) {
    x.lua_pushlightuserdata(L, jsonNullAddress(kernel));
    rawSetField(state, L, P, JSON_NULL_FIELD);
  }
  x.lua_settop(L, -2);
  if (rawGetField(state, L, P, JSON_LIST_MARKER_FIELD) === LuaTypeTag.NIL) {
    x.lua_createtable(L, 0, 1);
    pushName(kernel, L, "__metatable");
    x.lua_pushboolean(L, 0);
    x.lua_rawset(L, -3);
    rawSetField(state, L, P, JSON_LIST_MARKER_FIELD);
  }
  x.lua_settop(L, -2);
  ensureSealedTargetsAt(state, L, P);
}

/** Creates `P.sealed_targets` (a table with `__mode = "k"`) when absent. */
function ensureSealedTargetsAt(state: VmState, L: LuaState, P: number): void {
  const { kernel } = state;
  const { x } = kernel;
  if (rawGetField(state, L, P, SEALED_TARGETS_FIELD) === LuaTypeTag.NIL) {
    x.lua_createtable(L, 0, 0);
    x.lua_createtable(L, 0, 1);
    pushName(kernel, L, "__mode");
    pushName(kernel, L, "k");
    x.lua_rawset(L, -3);
    x.lua_setmetatable(L, -2);
    rawSetField(state, L, P, SEALED_TARGETS_FIELD);
  }
  x.lua_settop(L, -2);
}

/**
 * Creates the VM's `sealed_targets` table (private table field `sealed_targets`, weak keys) if
 * it is absent; never replaces it. The area that builds sealed views (var, argv, sys...) and
 * json both call it at install time, in either order, so both hold the same table: a view maps
 * to the Lua table holding its data, `P.sealed_targets[view] = data`.
 */
export function ensureSealedTargets(vm: LuaVm): void {
  const state = VmHandle.stateOf(vm);
  state.hostOp(() => {
    const { L } = state;
    pushPrivate(state, L);
    ensureSealedTargetsAt(state, L, state.kernel.x.lua_gettop(L));
    state.kernel.x.lua_settop(L, -2);
  });
}

/**
 * Creates json.null (`P.json_null`), the list marker (`P.json_list_marker`) and
 * `P.sealed_targets` in the VM's private table, each only if absent. installJson calls it; an
 * area installed before json that needs the marker or json.null calls it too.
 */
export function ensureJsonPrivateValues(vm: LuaVm): void {
  const state = VmHandle.stateOf(vm);
  state.hostOp(() => {
    const { L } = state;
    pushPrivate(state, L);
    ensurePrivateValuesAt(state, L, state.kernel.x.lua_gettop(L));
    state.kernel.x.lua_settop(L, -2);
  });
}
