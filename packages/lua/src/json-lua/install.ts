/**
 * installJson: puts the `json` Engine global into a fresh LuaVm.
 */

import { jsonEncodeLimits } from "../json/limits";
import type { LuaState } from "../module";
import { upvalueIndex } from "../vm/constants";
import type { RawCFunction } from "../vm/host-functions";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushGlobals, pushPrivate } from "../vm/sandbox";
import type { VmState } from "../vm/vm-state";
import { createArrayFunction } from "./array";
import { createDecodeFunction } from "./decode";
import { createEncodeFunction } from "./encode";
import { pushName } from "./lua-api";
import {
  ensurePrivateValuesAt,
  JSON_LIST_MARKER_FIELD,
  rawGetField,
  SEALED_TARGETS_FIELD,
} from "./private-values";
import { type JsonLuaRuntime, jsonRuntimeFor } from "./runtime";

/** Every json function closure's upvalues: 1 its dispatcher index, 2 the list marker, 3 `sealed_targets`. */
const MARKER_UPVALUE = upvalueIndex(2);
const TARGETS_UPVALUE = upvalueIndex(3);

/**
 * Installs the `json` global: a plain table with `decode`, `decode_lines`, `encode`,
 * `encode_lines`, `array` and `null`. Creates json.null, the list marker and `sealed_targets` in
 * the VM's private table if no area did yet (see ensureJsonPrivateValues). Each function holds the
 * list marker and `sealed_targets` as upvalues, so nothing a prompt does to the json table (or to
 * any global) changes how values encode. The encode budget derives from the VM's memory limit
 * (`vm.memoryLimit`): one eighth of it in values, all of it in string bytes.
 */
export function installJson(vm: LuaVm): void {
  const state = VmHandle.stateOf(vm);
  const runtime = jsonRuntimeFor(state.kernel);
  const functions = jsonFunctions(runtime, state.limitBytes);
  state.hostOp(() => {
    const { kernel, L } = state;
    const { x } = kernel;
    pushPrivate(state, L);
    const P = x.lua_gettop(L);
    ensurePrivateValuesAt(state, L, P);
    rawGetField(state, L, P, JSON_LIST_MARKER_FIELD); // P + 1
    rawGetField(state, L, P, SEALED_TARGETS_FIELD); // P + 2
    x.lua_createtable(L, 0, functions.length + 1); // P + 3
    const json = P + 3;
    for (const [field, fn] of functions) {
      pushName(kernel, L, field);
      pushJsonClosure(state, L, `json.${field}`, fn, P + 1, P + 2);
      x.lua_rawset(L, json);
    }
    pushName(kernel, L, "null");
    x.lua_pushlightuserdata(L, runtime.nullAddress);
    x.lua_rawset(L, json);
    pushGlobals(state, L);
    pushName(kernel, L, "json");
    x.lua_pushvalue(L, json);
    x.lua_rawset(L, -3);
    x.lua_settop(L, P - 1);
  });
}

/** The json table's functions, each a field name and its raw C function. */
type JsonFunctions = readonly (readonly [string, RawCFunction])[];

/**
 * The json functions of VMs with memory limit `limitBytes` on `runtime`'s kernel, made once: they
 * keep no state of their own VM (the marker and `sealed_targets` are upvalues), so every VM with
 * the same limit shares them instead of making five closures per section entry.
 */
const functionsByRuntime = new WeakMap<JsonLuaRuntime, Map<number, JsonFunctions>>();

function jsonFunctions(runtime: JsonLuaRuntime, limitBytes: number): JsonFunctions {
  let byLimit = functionsByRuntime.get(runtime);
  if (byLimit === undefined) {
    byLimit = new Map();
    functionsByRuntime.set(runtime, byLimit);
  }
  let functions = byLimit.get(limitBytes);
  if (functions === undefined) {
    const { kernel, sink, x } = runtime;
    const limits = jsonEncodeLimits(limitBytes);
    const tables = {
      markerIndex: MARKER_UPVALUE,
      targetsIndex: TARGETS_UPVALUE,
      memoryLimit: limitBytes,
    };
    functions = [
      ["array", createArrayFunction(x, MARKER_UPVALUE)],
      ["decode", createDecodeFunction(kernel, sink, MARKER_UPVALUE, false, limitBytes)],
      ["decode_lines", createDecodeFunction(kernel, sink, MARKER_UPVALUE, true, limitBytes)],
      ["encode", createEncodeFunction(runtime, limits, tables, false)],
      ["encode_lines", createEncodeFunction(runtime, limits, tables, true)],
    ];
    byLimit.set(limitBytes, functions);
  }
  return functions;
}

/** Pushes the dispatcher closure for raw function `fn` with the marker and targets upvalues. */
function pushJsonClosure(
  state: VmState,
  L: LuaState,
  name: string,
  fn: RawCFunction,
  marker: number,
  targets: number,
): void {
  const { kernel } = state;
  const { x } = kernel;
  const index = state.functions.add({ kind: "raw", name, fn });
  x.lua_pushlightuserdata(L, index);
  x.lua_pushvalue(L, marker);
  x.lua_pushvalue(L, targets);
  x.lua_pushcclosure(L, kernel.dispatcher, 3);
}
