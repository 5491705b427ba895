/**
 * json for the Engine's JavaScript side: decode text onto a Lua stack, encode a Lua value to
 * text, by exactly json.decode's and json.encode's rules. For areas that move data between JSON
 * and Lua themselves (structured tool results, argv, reading var back).
 */

import { jsonEncodeLimits } from "../json/limits";
import type { LuaState } from "../module";
import { absIndex } from "../vm/marshal";
import { pushPrivate } from "../vm/sandbox";
import type { VmState } from "../vm/vm-state";
import { decodeLuaString } from "./decode";
import {
  ensurePrivateValuesAt,
  JSON_LIST_MARKER_FIELD,
  rawGetField,
  SEALED_TARGETS_FIELD,
} from "./private-values";
import { jsonRuntimeFor } from "./runtime";

/** Options of {@link encodeLuaValueAt}. */
export interface EncodeLuaValueOptions {
  /** Debug mode (placeholders instead of refusals); false by default. */
  readonly debug?: boolean;
  /** The function named in messages; `json.encode` by default. */
  readonly functionName?: string;
}

/**
 * Pushes the private table's list marker and `sealed_targets` (creating them if absent) and
 * returns the absolute index of the marker; `sealed_targets` is the slot above it.
 */
function pushJsonTables(state: VmState, L: LuaState): number {
  const { x } = state.kernel;
  pushPrivate(state, L);
  const P = x.lua_gettop(L);
  ensurePrivateValuesAt(state, L, P);
  rawGetField(state, L, P, JSON_LIST_MARKER_FIELD);
  rawGetField(state, L, P, SEALED_TARGETS_FIELD);
  return P + 1;
}

/**
 * Decodes the JSON document in `text` and pushes its Lua value onto `L` (one slot), exactly as
 * json.decode builds it: marked lists, json.null, integers and floats. Refusals throw a `lua`
 * EngineError whose message starts with `functionName` (`json.decode` by default). Allocates on
 * the Lua heap: call it inside a host function (a memory error then raises in Lua) or a host op.
 */
export function pushDecodedJson(
  state: VmState,
  L: LuaState,
  text: Uint8Array | string,
  functionName = "json.decode",
): void {
  const { kernel } = state;
  const { x } = kernel;
  const runtime = jsonRuntimeFor(kernel);
  const top = x.lua_gettop(L);
  const marker = pushJsonTables(state, L);
  if (typeof text === "string") kernel.pushText(L, text);
  else kernel.pushBytes(L, text);
  const textIndex = x.lua_gettop(L);
  decodeLuaString(
    kernel,
    runtime.sink,
    L,
    textIndex,
    marker,
    functionName,
    false,
    state.limitBytes,
  );
  // [.., P, marker, targets, text, value] -> [.., value]
  x.lua_rotate(L, top + 1, 1);
  x.lua_settop(L, top + 1);
}

/**
 * The JSON text of the value at `index` of `L`, exactly as json.encode writes it (sorted keys,
 * marked lists, sealed views read through, the VM's size budget), as a fresh byte array.
 * Refusals throw a `lua` EngineError with json.encode's messages (`functionName` replacing
 * `json.encode`). Leaves the stack as it found it.
 */
export function encodeLuaValueAt(
  state: VmState,
  L: LuaState,
  index: number,
  options: EncodeLuaValueOptions = {},
): Uint8Array {
  const { kernel } = state;
  const { x } = kernel;
  const runtime = jsonRuntimeFor(kernel);
  const value = absIndex(kernel, L, index);
  const top = x.lua_gettop(L);
  const marker = pushJsonTables(state, L);
  try {
    const { encoder } = runtime;
    encoder.begin(L, {
      functionName: options.functionName ?? "json.encode",
      debug: options.debug === true,
      limits: jsonEncodeLimits(state.limitBytes),
      markerIndex: marker,
      targetsIndex: marker + 1,
      memoryLimit: state.limitBytes,
    });
    encoder.encodeValue(value);
    const bytes = encoder.output().slice();
    encoder.end();
    return bytes;
  } finally {
    x.lua_settop(L, top);
  }
}
