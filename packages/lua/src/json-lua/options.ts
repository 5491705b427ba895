/**
 * The options argument of json.encode and json.encode_lines: nil, or a table whose only key is
 * `debug`, holding a boolean.
 */

import { argumentError } from "../engine-error";
import {
  optionDebugMustBeBooleanMessage,
  optionsMustBeTableMessage,
  unknownOptionMessage,
} from "../json/messages";
import { compareBytes, decodeUtf8Lossy } from "../json/utf8";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { LuaKernel } from "../vm/kernel";
import { compareNumberKeys } from "./debug-keys";
import { engineTypeName, pushName } from "./lua-api";
import { otherKeyBit } from "./table-keys";

/** An unknown option key, with what the fixed key order needs to rank it. */
interface UnknownKey {
  /** 0 boolean, 1 number, 2 string, 3 any other type. */
  readonly group: number;
  readonly number: number | bigint;
  readonly bytes: Uint8Array | undefined;
  /** The text `unknown option {key}` shows. */
  readonly name: string;
}

function compareUnknown(a: UnknownKey, b: UnknownKey): number {
  if (a.group !== b.group) return a.group - b.group;
  if (a.group === 1) return compareNumberKeys(a.number, b.number);
  if (a.group === 2) return compareBytes(a.bytes as Uint8Array, b.bytes as Uint8Array);
  return Number(a.number) - Number(b.number);
}

const TWO_POW_53 = 2 ** 53;

/** The key at -2 (during lua_next) as an unknown option, or undefined when it is `debug`. */
function unknownKeyAt(kernel: LuaKernel, L: LuaState): UnknownKey | undefined {
  const { x } = kernel;
  const type = x.lua_type(L, -2);
  if (type === LuaTypeTag.STRING) {
    const bytes = kernel.readBytes(L, -2);
    const name = decodeUtf8Lossy(bytes);
    if (name === "debug" && bytes.length === 5) return undefined;
    return { group: 2, number: 0, bytes, name };
  }
  if (type === LuaTypeTag.NUMBER) {
    if (x.lua_isinteger(L, -2) !== 0) {
      const d = x.lua_tonumberx(L, -2, 0);
      const key = Math.abs(d) < TWO_POW_53 ? d : x.lua_tointegerx(L, -2, 0);
      return { group: 1, number: key, bytes: undefined, name: String(key) };
    }
    return { group: 1, number: x.lua_tonumberx(L, -2, 0), bytes: undefined, name: "number" };
  }
  if (type === LuaTypeTag.BOOLEAN) {
    return { group: 0, number: x.lua_toboolean(L, -2), bytes: undefined, name: "boolean" };
  }
  return {
    group: 3,
    number: otherKeyBit(type),
    bytes: undefined,
    name: engineTypeName(x, L, -2),
  };
}

/**
 * Reads the options at stack index `index` for `functionName` and returns whether debug mode is
 * on. Checks, in this order: the argument is nil/absent or a table (`options must be a table,
 * got {type}`); every key is `debug` (else `unknown option {key}` for the first unknown key in
 * the fixed key order: its text for a string or integer key, its type name otherwise); `debug`
 * holds a boolean (`option debug must be a boolean, got {type}`). Read raw.
 */
export function readDebugOption(
  kernel: LuaKernel,
  L: LuaState,
  index: number,
  functionName: string,
): boolean {
  const { x } = kernel;
  const type = x.lua_type(L, index);
  if (type === LuaTypeTag.NONE || type === LuaTypeTag.NIL) return false;
  if (type !== LuaTypeTag.TABLE) {
    throw argumentError(optionsMustBeTableMessage(functionName, engineTypeName(x, L, index)));
  }
  let first: UnknownKey | undefined;
  x.lua_pushnil(L);
  while (x.lua_next(L, index) !== 0) {
    const unknown = unknownKeyAt(kernel, L);
    if (unknown !== undefined && (first === undefined || compareUnknown(unknown, first) < 0)) {
      first = unknown;
    }
    x.lua_settop(L, -2);
  }
  if (first !== undefined) throw argumentError(unknownOptionMessage(functionName, first.name));
  pushName(kernel, L, "debug");
  const debugType = x.lua_rawget(L, index);
  try {
    if (debugType === LuaTypeTag.NIL) return false;
    if (debugType !== LuaTypeTag.BOOLEAN) {
      throw argumentError(optionDebugMustBeBooleanMessage(functionName, engineTypeName(x, L, -1)));
    }
    return x.lua_toboolean(L, -1) !== 0;
  } finally {
    x.lua_settop(L, -2);
  }
}
