/**
 * What the sealed views this area builds (var tables, sys) share: the `__pairs` that yields
 * nothing, and the check of JSON data handed in by the Engine.
 *
 * The contract with json (the Lua area's wave 2): the private table's weak-keyed
 * `sealed_targets` maps each view (an empty proxy whose metatable is protected by a
 * `__metatable` text) to the table holding its data, or to `false` for a view that cannot be read
 * (sys, whose `__index` is a function). `pairs` honours `__pairs`, so `pairs` over a view is
 * empty whichever `pairs` the sandbox installs; `next`, `#` and `rawlen` see an empty table.
 */

import type { JsonObject, JsonValue } from "../json/value";
import type { LuaState } from "../module";
import { UPVALUE_2 } from "../vm/constants";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaKernel } from "../vm/kernel";
import type { VmState } from "../vm/vm-state";
import { addRawFunction, pushRawClosure } from "./raw-lua";

/** The two raw functions of an empty `pairs`, one pair per kernel. */
interface EmptyPairs {
  /** An iterator that yields nothing: it returns nil, as `next` does at the end. */
  readonly none: RawCFunction;
  /** `__pairs(view)`: the iterator in upvalue 2, the view, nil. */
  readonly pairs: RawCFunction;
}

const byKernel = new WeakMap<LuaKernel, EmptyPairs>();

function emptyPairsOf(kernel: LuaKernel): EmptyPairs {
  let fns = byKernel.get(kernel);
  if (fns === undefined) {
    const { x } = kernel;
    fns = {
      none: (L: LuaState): number => {
        x.lua_pushnil(L);
        return 1;
      },
      pairs: (L: LuaState): number => {
        x.lua_pushvalue(L, UPVALUE_2);
        x.lua_pushvalue(L, 1);
        x.lua_pushnil(L);
        return 3;
      },
    };
    byKernel.set(kernel, fns);
  }
  return fns;
}

/**
 * Pushes a `__pairs` closure for views of `state`'s VM: `pairs(view)` returns an iterator that
 * yields nothing, the view and nil.
 */
export function pushEmptyPairs(state: VmState, L: LuaState): void {
  const { kernel } = state;
  const fns = emptyPairsOf(kernel);
  pushRawClosure(kernel, L, addRawFunction(state, "(iterator)", fns.none), 0);
  pushRawClosure(kernel, L, addRawFunction(state, "(pairs)", fns.pairs), 1);
}

/**
 * Throws a TypeError unless `value` is JSON data in this package's model (JsonValue): no float
 * that is not finite, no cycle, nothing of another type.
 */
export function assertJsonData(value: JsonValue, visiting = new Set<object>()): void {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "bigint":
      return;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not JSON data`);
      return;
    case "object":
      break;
    default:
      throw new TypeError(`a ${typeof value} is not JSON data`);
  }
  if (value === null) return;
  if (visiting.has(value)) throw new TypeError("JSON data cannot contain itself");
  visiting.add(value);
  const items: readonly JsonValue[] = Array.isArray(value)
    ? value
    : Object.values(value as JsonObject);
  for (const item of items) assertJsonData(item, visiting);
  visiting.delete(value);
}
