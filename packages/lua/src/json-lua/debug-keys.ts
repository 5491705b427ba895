/**
 * The keys of a table that debug mode writes as an object because it breaks the key rules:
 * every scalar key as its text, duplicates resolved in the fixed key order.
 */

import { numberKeyText } from "../json/number-text";
import { compareBytes, compareUtf8Order, decodeUtf8Lossy } from "../json/utf8";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { LuaKernel } from "../vm/kernel";

/** One key of a debug-mode object. */
export interface DebugKey {
  /** The member name written: the number's text, `true`/`false`, or the string (U+FFFD for invalid bytes). */
  readonly text: string;
  /** How to fetch the value again: by integer, float, boolean or string key. */
  readonly kind: "integer" | "float" | "boolean" | "string";
  /** The key itself for a number or boolean key. */
  readonly key: number | bigint | boolean;
  /** The key's bytes for a string key. */
  readonly bytes: Uint8Array | undefined;
}

const GROUP = { boolean: 0, integer: 1, float: 1, string: 2 } as const;

/** Compares two number keys by value, exactly (integers past 2^53 arrive as bigints). */
export function compareNumberKeys(a: number | bigint, b: number | bigint): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  const da = Number(a);
  const db = Number(b);
  if (da !== db) return da < db ? -1 : 1;
  // Equal as doubles: compare exactly when both are integral (a float here is finite).
  if (!Number.isFinite(da)) return 0;
  const ba = typeof a === "bigint" ? a : BigInt(a);
  const bb = typeof b === "bigint" ? b : BigInt(b);
  return ba < bb ? -1 : ba > bb ? 1 : 0;
}

/** The fixed key order: booleans (false first), numbers by value, strings bytewise. */
function compareVisitOrder(a: DebugKey, b: DebugKey): number {
  const ga = GROUP[a.kind];
  const gb = GROUP[b.kind];
  if (ga !== gb) return ga - gb;
  if (ga === 0) return Number(a.key) - Number(b.key);
  if (ga === 1) return compareNumberKeys(a.key as number | bigint, b.key as number | bigint);
  return compareBytes(a.bytes as Uint8Array, b.bytes as Uint8Array);
}

const TWO_POW_53 = 2 ** 53;

/**
 * Walks the keys of the table at absolute index `table` and returns its scalar keys as debug
 * mode writes them: sorted by their text in UTF-8 byte order, and, where two keys give the same
 * text, only the one later in the fixed key order (so `t['1']` wins over `t[1]`). Table,
 * function, userdata and thread keys are left out. Leaves the stack as it found it.
 */
export function debugObjectKeys(kernel: LuaKernel, L: LuaState, table: number): DebugKey[] {
  const { x } = kernel;
  const keys: DebugKey[] = [];
  x.lua_pushnil(L);
  while (x.lua_next(L, table) !== 0) {
    const type = x.lua_type(L, -2);
    if (type === LuaTypeTag.NUMBER) {
      if (x.lua_isinteger(L, -2) !== 0) {
        const d = x.lua_tonumberx(L, -2, 0);
        const key = Math.abs(d) < TWO_POW_53 ? d : x.lua_tointegerx(L, -2, 0);
        keys.push({ text: numberKeyText(key), kind: "integer", key, bytes: undefined });
      } else {
        const key = x.lua_tonumberx(L, -2, 0);
        keys.push({ text: numberKeyText(key), kind: "float", key, bytes: undefined });
      }
    } else if (type === LuaTypeTag.BOOLEAN) {
      const key = x.lua_toboolean(L, -2) !== 0;
      keys.push({ text: key ? "true" : "false", kind: "boolean", key, bytes: undefined });
    } else if (type === LuaTypeTag.STRING) {
      const bytes = kernel.readBytes(L, -2);
      keys.push({ text: decodeUtf8Lossy(bytes), kind: "string", key: false, bytes });
    }
    x.lua_settop(L, -2);
  }
  keys.sort(compareVisitOrder);
  const byText = new Map<string, DebugKey>();
  for (const key of keys) {
    byText.delete(key.text);
    byText.set(key.text, key);
  }
  return [...byText.values()].sort((a, b) => compareUtf8Order(a.text, b.text));
}

/** Pushes `t[key.key]` (raw) for the table at absolute index `table`. */
export function pushDebugKeyValue(
  kernel: LuaKernel,
  L: LuaState,
  table: number,
  key: DebugKey,
): void {
  const { x } = kernel;
  switch (key.kind) {
    case "integer":
      x.lua_rawgeti(L, table, BigInt(key.key as number | bigint));
      return;
    case "float":
      x.lua_pushnumber(L, key.key as number);
      break;
    case "boolean":
      x.lua_pushboolean(L, key.key === true ? 1 : 0);
      break;
    default:
      kernel.pushBytes(L, key.bytes as Uint8Array);
      break;
  }
  x.lua_rawget(L, table);
}
