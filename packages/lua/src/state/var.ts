import type { JsonObject, JsonValue } from "../json/value";
import {
  ensurePrivateValuesAt,
  JSON_LIST_MARKER_FIELD,
  JSON_NULL_FIELD,
  SEALED_TARGETS_FIELD,
} from "../json-lua/private-values";
import type { LuaState } from "../module";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushGlobals, pushPrivate } from "../vm/sandbox";
import { addRawFunction, getRawField, setRawField } from "./raw-lua";
import { assertJsonData, pushEmptyPairs } from "./sealed-views";
import {
  childPath,
  KIT_MARKER,
  KIT_NULL,
  KIT_PAIRS,
  KIT_TARGETS,
  VAR_PRIVATE_FIELD,
  VarContext,
} from "./var-context";
import { createGuard } from "./var-guard";

/** How installVar fills var. */
export interface VarOptions {
  /**
   * The var the section starts with, as JSON data (integers as bigints, floats as numbers; see
   * JsonValue): the previous section's read-back, or nothing for an empty var (the H1 pass, or a
   * prompt's first section). Arrays arrive as marked lists.
   */
  readonly initial?: JsonObject;
}

/** Stack slots one level of the initial data may use. */
const SLOTS_PER_LEVEL = 8;

/**
 * Pushes `value` as var stores it: scalars as Lua values (floats stay floats), null as json.null,
 * arrays and objects as new storage tables (arrays marked) behind their views.
 */
function pushInitial(
  ctx: VarContext,
  L: LuaState,
  value: JsonValue,
  parent: string,
  step: string | number | undefined,
  level: number,
  kit: number,
): void {
  const { kernel, x } = ctx;
  switch (typeof value) {
    case "string":
      kernel.pushText(L, value);
      return;
    case "boolean":
      x.lua_pushboolean(L, value ? 1 : 0);
      return;
    case "bigint":
      x.lua_pushinteger(L, value);
      return;
    case "number":
      x.lua_pushnumber(L, value);
      return;
    default:
      break;
  }
  if (value === null) {
    x.lua_rawgeti(L, kit, KIT_NULL);
    return;
  }
  if (x.lua_checkstack(L, SLOTS_PER_LEVEL) === 0) throw new RangeError("the Lua stack cannot grow");
  const path = step === undefined ? parent : childPath(parent, step);
  const array = Array.isArray(value);
  const items: readonly JsonValue[] = array ? value : [];
  const object = array ? {} : (value as JsonObject);
  const keys = array ? [] : Object.keys(object);
  x.lua_createtable(L, items.length, keys.length);
  const storage = x.lua_gettop(L);
  if (array) ctx.mark(L, storage, kit);
  ctx.pushView(L, storage, path, level, kit);
  for (let i = 0; i < items.length; i++) {
    pushInitial(ctx, L, items[i] as JsonValue, path, i + 1, level + 1, kit);
    x.lua_rawseti(L, storage, BigInt(i + 1));
  }
  for (const key of keys) {
    kernel.pushText(L, key);
    pushInitial(ctx, L, object[key] as JsonValue, path, key, level + 1, kit);
    x.lua_rawset(L, storage);
  }
  x.lua_rotate(L, storage, 1);
  x.lua_settop(L, storage);
}

/**
 * Installs the `var` global in `vm` ("Keeping state in var"): a guarded, writable table whose
 * fields hold only JSON data. Each write is checked at the assigning statement and refused with
 * a plain runtime error naming the full path (`runtime error: var.t.f must be JSON data, got
 * function`, `... is too large to store`, and json.encode's other refusals); a table is checked
 * deeply within json.encode's value and byte budgets (from the VM's memory limit) and stored as
 * a copy. Reading var or any table read from it sees an empty table (`#`, `pairs`, `next`), and
 * getmetatable reads `var is guarded`. Also creates json.null, the list marker and
 * `sealed_targets` in the private table when json is not installed yet. Throws a TypeError for
 * initial data that is not JSON data.
 *
 * Every var table is a view: an empty proxy whose metatable holds `__index` = its storage table
 * (so reads are plain table lookups) and `__newindex` = the guard (a C closure); the storage
 * tables are reachable only through metatables prompt code cannot read, the private table and
 * C closure upvalues.
 */
export function installVar(vm: LuaVm, options: VarOptions = {}): void {
  const { initial } = options;
  if (initial !== undefined) assertJsonData(initial);
  const state = VmHandle.stateOf(vm);
  const ctx = new VarContext(state);
  ctx.guardIndex = addRawFunction(state, "var", createGuard(ctx));
  state.hostOp(() => {
    const { kernel, x } = ctx;
    const { L } = state;
    pushPrivate(state, L);
    const P = x.lua_gettop(L);
    ensurePrivateValuesAt(state, L, P);
    x.lua_createtable(L, 4, 0); // P + 1: the kit
    const kit = P + 1;
    getRawField(kernel, L, P, SEALED_TARGETS_FIELD);
    x.lua_rawseti(L, kit, KIT_TARGETS);
    getRawField(kernel, L, P, JSON_LIST_MARKER_FIELD);
    x.lua_rawseti(L, kit, KIT_MARKER);
    getRawField(kernel, L, P, JSON_NULL_FIELD);
    x.lua_rawseti(L, kit, KIT_NULL);
    pushEmptyPairs(state, L);
    x.lua_rawseti(L, kit, KIT_PAIRS);
    pushInitial(ctx, L, initial ?? {}, "var", undefined, 1, kit); // P + 2: the root view
    x.lua_createtable(L, 0, 2);
    x.lua_pushvalue(L, P + 2);
    setRawField(kernel, L, P + 3, "view");
    x.lua_pushvalue(L, kit);
    setRawField(kernel, L, P + 3, "kit");
    setRawField(kernel, L, P, VAR_PRIVATE_FIELD);
    pushGlobals(state, L);
    x.lua_pushvalue(L, P + 2);
    setRawField(kernel, L, P + 3, "var");
    x.lua_settop(L, P - 1);
  });
}
