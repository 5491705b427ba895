/**
 * json.encode and json.encode_lines as raw C functions.
 */

import { argumentError } from "../engine-error";
import type { JsonEncodeLimits } from "../json/limits";
import { encodeLinesExpectsListMessage } from "../json/messages";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "../vm/host-functions";
import { engineTypeName } from "./lua-api";
import { readDebugOption } from "./options";
import type { JsonLuaRuntime } from "./runtime";

/** Where the list marker and `sealed_targets` are while an encode runs. */
export interface EncodeTables {
  /** Stack index or upvalue pseudo-index of the list marker. */
  readonly markerIndex: number;
  /** Stack index or upvalue pseudo-index of `sealed_targets` (0: none). */
  readonly targetsIndex: number;
  /** The VM's Lua memory limit in bytes. */
  readonly memoryLimit: number;
}

/**
 * Encodes the value at absolute index `index` of `L` and pushes the text as a Lua string (a Lua
 * memory error raised by that push passes through unchanged). `lines` selects json.encode_lines,
 * whose value the caller has checked is a table.
 */
export function encodeOnto(
  runtime: JsonLuaRuntime,
  L: LuaState,
  index: number,
  functionName: string,
  debug: boolean,
  limits: JsonEncodeLimits,
  tables: EncodeTables,
  lines: boolean,
): void {
  const { encoder } = runtime;
  encoder.begin(L, {
    functionName,
    debug,
    limits,
    markerIndex: tables.markerIndex,
    targetsIndex: tables.targetsIndex,
    memoryLimit: tables.memoryLimit,
  });
  if (lines) encoder.encodeLines(index);
  else encoder.encodeValue(index);
  try {
    runtime.kernel.pushBytes(L, encoder.output());
  } finally {
    encoder.end();
  }
}

/**
 * The raw C function behind json.encode (`lines` false) or json.encode_lines (`lines` true):
 * options (argument 2) are checked first, then json.encode_lines' list argument, then the walk.
 */
export function createEncodeFunction(
  runtime: JsonLuaRuntime,
  limits: JsonEncodeLimits,
  tables: EncodeTables,
  lines: boolean,
): RawCFunction {
  const functionName = lines ? "json.encode_lines" : "json.encode";
  const { kernel, x } = runtime;
  return (L: LuaState): number => {
    const debug = readDebugOption(kernel, L, 2, functionName);
    if (lines && x.lua_type(L, 1) !== LuaTypeTag.TABLE) {
      throw argumentError(encodeLinesExpectsListMessage(engineTypeName(x, L, 1)));
    }
    encodeOnto(runtime, L, 1, functionName, debug, limits, tables, lines);
    return 1;
  };
}
