import type { JsonObject, JsonValue } from "../json/value";
import type { LuaState } from "../module";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushGlobals } from "../vm/sandbox";
import type { VmState } from "../vm/vm-state";
import { addRawFunction, pushRawClosure, setRawField } from "./raw-lua";
import { assertJsonData } from "./sealed-views";

/** Deepest snapshot nesting pushed without asking Lua for more stack. */
const STACK_STEP = 8;

/**
 * Pushes `value` as plain Lua values: objects and arrays become new tables (arrays indexed from
 * 1), integers (bigints) Lua integers, floats floats, and JSON null nil (an absent field, or a
 * hole in an array).
 */
function pushSnapshotValue(state: VmState, L: LuaState, value: JsonValue): void {
  const { kernel } = state;
  const { x } = kernel;
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
    x.lua_pushnil(L);
    return;
  }
  if (x.lua_checkstack(L, STACK_STEP) === 0) throw new RangeError("the Lua stack cannot grow");
  if (Array.isArray(value)) {
    const items: readonly JsonValue[] = value;
    x.lua_createtable(L, items.length, 0);
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as JsonValue;
      if (item === null) continue;
      pushSnapshotValue(state, L, item);
      x.lua_rawseti(L, -2, BigInt(i + 1));
    }
    return;
  }
  const object = value as JsonObject;
  const keys = Object.keys(object);
  x.lua_createtable(L, 0, keys.length);
  for (const key of keys) {
    const member = object[key] as JsonValue;
    if (member === null) continue;
    kernel.pushText(L, key);
    pushSnapshotValue(state, L, member);
    x.lua_rawset(L, -3);
  }
}

/**
 * Installs the `ui` global when the run has a Host snapshot: a function that takes no arguments
 * and returns the snapshot as a fresh Lua table on every call, so edits to one result never show
 * up in the next ("The Host's state in ui()"). JSON null fields read as nil, never as json.null;
 * integers (bigints) arrive as Lua integers and floats as floats. Without a snapshot
 * (`undefined`) it installs nothing: `ui` stays absent and reads nil. Throws a TypeError for a
 * snapshot that is not JSON data.
 */
export function installUi(vm: LuaVm, snapshot: JsonObject | undefined): void {
  if (snapshot === undefined) return;
  assertJsonData(snapshot);
  const state = VmHandle.stateOf(vm);
  const ui = (L: LuaState): number => {
    pushSnapshotValue(state, L, snapshot);
    return 1;
  };
  state.hostOp(() => {
    const { kernel, L } = state;
    pushGlobals(state, L);
    pushRawClosure(kernel, L, addRawFunction(state, "ui", ui), 0);
    setRawField(kernel, L, kernel.x.lua_gettop(L) - 1, "ui");
    kernel.x.lua_settop(L, -2);
  });
}
