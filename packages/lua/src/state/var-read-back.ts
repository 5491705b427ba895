import { EngineError } from "../engine-error";
import { compareUtf8Order } from "../json/utf8";
import type { JsonObject, JsonValue } from "../json/value";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushGlobals, pushPrivate } from "../vm/sandbox";
import type { VmState } from "../vm/vm-state";
import { VAR_REASSIGNED_MESSAGE } from "./messages";
import { KIT_MARKER, KIT_TARGETS, VAR_PRIVATE_FIELD } from "./var-context";

/** Pushes `t[name]` (raw) for the table at absolute index `t`; returns the type tag. */
function rawField(state: VmState, L: LuaState, t: number, name: string): number {
  state.kernel.pushText(L, name);
  return state.kernel.x.lua_rawget(L, t);
}

/**
 * Reads var back as JSON data, from JavaScript through the raw C API (no Lua runs, so it works
 * at any time, also from inside a host function while a block runs or waits): var is an object,
 * a storage table with list items or json's list marker an array (an empty marked one `[]`), any
 * other storage table an object (an empty one `{}`), json.null null, integers bigints and floats
 * numbers (see JsonValue). Object members come in bytewise key order.
 *
 * Throws an EngineError of kind `lua` with `the \`var\` global was reassigned; write
 * \`var.<field>\` instead` when the var global no longer holds the table installVar made (the
 * run then fails with run error kind Lua), and an Error when installVar never ran on `vm`.
 */
export function readBackVar(vm: LuaVm): JsonObject {
  const state = VmHandle.stateOf(vm);
  return state.hostOp(() => {
    const { kernel, L } = state;
    const x = kernel.x;
    pushPrivate(state, L);
    const P = x.lua_gettop(L);
    if (rawField(state, L, P, VAR_PRIVATE_FIELD) !== LuaTypeTag.TABLE) {
      throw new Error("readBackVar: installVar has not run on this LuaVm");
    }
    rawField(state, L, P + 1, "view"); // P + 2
    rawField(state, L, P + 1, "kit");
    x.lua_rawgeti(L, P + 3, KIT_TARGETS); // P + 4
    x.lua_rawgeti(L, P + 3, KIT_MARKER); // P + 5
    x.lua_rotate(L, P + 3, -1); // the kit goes up: targets at P + 3, marker at P + 4
    x.lua_settop(L, P + 4);
    pushGlobals(state, L);
    rawField(state, L, P + 5, "var"); // P + 6
    if (x.lua_rawequal(L, P + 6, P + 2) === 0) {
      throw new EngineError("lua", VAR_REASSIGNED_MESSAGE);
    }
    const reader = new StorageReader(state, P + 3, P + 4);
    const value = reader.read(P + 2);
    x.lua_settop(L, P - 1);
    return value as JsonObject;
  });
}

/** Walks storage tables on the main thread's stack. */
class StorageReader {
  private readonly state: VmState;
  private readonly targets: number;
  private readonly marker: number;

  constructor(state: VmState, targets: number, marker: number) {
    this.state = state;
    this.targets = targets;
    this.marker = marker;
  }

  /** The JSON value at absolute index `idx` (a scalar, json.null or a var view). */
  read(idx: number): JsonValue {
    const { kernel, L } = this.state;
    const x = kernel.x;
    switch (x.lua_type(L, idx)) {
      case LuaTypeTag.STRING:
        return kernel.readText(L, idx);
      case LuaTypeTag.BOOLEAN:
        return x.lua_toboolean(L, idx) !== 0;
      case LuaTypeTag.NUMBER:
        return x.lua_isinteger(L, idx) !== 0
          ? x.lua_tointegerx(L, idx, 0)
          : x.lua_tonumberx(L, idx, 0);
      case LuaTypeTag.TABLE:
        return this.readView(idx);
      default:
        return null;
    }
  }

  private readView(view: number): JsonValue {
    const { kernel, L } = this.state;
    const x = kernel.x;
    if (x.lua_checkstack(L, 8) === 0) throw new RangeError("the Lua stack cannot grow");
    x.lua_pushvalue(L, view);
    x.lua_rawget(L, this.targets);
    const S = x.lua_gettop(L);
    let list = false;
    if (x.lua_getmetatable(L, S) !== 0) {
      list = x.lua_rawequal(L, -1, this.marker) !== 0;
      x.lua_settop(L, S);
    }
    let result: JsonValue;
    if (list || x.lua_rawgeti(L, S, 1n) !== LuaTypeTag.NIL) {
      x.lua_settop(L, S);
      const items: JsonValue[] = [];
      for (let i = 1; x.lua_rawgeti(L, S, BigInt(i)) !== LuaTypeTag.NIL; i++) {
        items.push(this.read(S + 1));
        x.lua_settop(L, S);
      }
      result = items;
    } else {
      x.lua_settop(L, S);
      const members: [string, JsonValue][] = [];
      x.lua_pushnil(L);
      while (x.lua_next(L, S) !== 0) {
        members.push([kernel.readText(L, S + 1), this.read(S + 2)]);
        x.lua_settop(L, S + 1);
      }
      members.sort((a, b) => compareUtf8Order(a[0], b[0]));
      const object: JsonObject = {};
      for (const [key, value] of members) {
        if (key === "__proto__") {
          Object.defineProperty(object, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          object[key] = value;
        }
      }
      result = object;
    }
    x.lua_settop(L, S - 1);
    return result;
  }
}
