import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { RawCFunction } from "../vm/host-functions";
import { isUtf8At, keyHigh, keyLow, keyNumber, keyTag, type OrderedKeys } from "./key-list";
import {
  realArraySize,
  stringLength,
  TABLE_ARRAY,
  TAG_FALSE,
  TAG_FLOAT,
  TAG_INT,
  TSTRING_CONTENTS,
  TVALUE_BYTES,
  TVALUE_TAG,
} from "./lua-layout";
import { type MemoryViews, memoryViews } from "./memory-views";
import {
  compareNumberKeys,
  integerApprox,
  integerHigh,
  integerLow,
  isSafeApprox,
} from "./number-order";
import type { OrderEntry } from "./order-entry";
import type { OrderRuntime } from "./order-runtime";
import { compareBytesAt } from "./sort-bytes";

/** Stack index of the key list that OrderRuntime.orderOf pushes after `t, k`. */
const KEYS_INDEX = 3;

const TWO_63 = 2 ** 63;

/**
 * The deterministic `next(t [, k])`: the key after `k` in the order pairs uses (the first key
 * when `k` is nil) and its raw value, or `nil, nil` when none follows. It reads the live table
 * on every call, as the spec says. A key that is not in the table resumes at its sort position:
 * an integer of 1 or more as an array index, a table, function, userdata, thread or NaN at the
 * start of the trailing group. The order is kept between calls only while it provably holds
 * (see OrderRuntime), so a full walk costs O(n log n), not O(n^2 log n).
 */
export function createNextFunction(runtime: OrderRuntime): RawCFunction {
  const { x } = runtime.state.kernel;
  return (L: LuaState): number => {
    x.luaL_checktype(L, 1, LuaTypeTag.TABLE);
    x.lua_settop(L, 2);
    const entry = runtime.orderOf(L, "armed");
    return step(runtime, L, entry, locate(runtime, L, entry));
  };
}

/**
 * The walk position of the key at stack index 2: 1..border for the array part, border + 1 + i
 * for hash key i; for a key not in the table, the position it would sort after (so the walk
 * resumes at the first key sorting after it); 0 for nil.
 */
function locate(runtime: OrderRuntime, L: LuaState, entry: OrderEntry): number {
  const v = memoryViews(runtime.state.kernel.heap);
  const { x, intCell } = runtime.state.kernel;
  const { keys, border } = entry;
  const type = x.lua_type(L, 2);
  const cursor = entry.cursor;
  switch (type) {
    case LuaTypeTag.NIL:
      return 0;
    case LuaTypeTag.BOOLEAN: {
      // false: at 0 if present; true: last boolean. Present or not, that is the same position.
      if (x.lua_toboolean(L, 2) === 0) {
        return keys.numberStart > 0 && keyTag(v, keys, 0) === TAG_FALSE ? border + 1 : border;
      }
      return border + keys.numberStart;
    }
    case LuaTypeTag.NUMBER: {
      const value = x.lua_tonumberx(L, 2, intCell);
      if (x.lua_isinteger(L, 2) !== 0) {
        const exact = isSafeApprox(value) ? undefined : x.lua_tointegerx(L, 2, intCell);
        return locateInteger(runtime, L, entry, v, value, exact);
      }
      if (Number.isNaN(value)) return border + keys.otherStart;
      if (value === Number.NEGATIVE_INFINITY) {
        const present =
          keys.infinityStart < keys.invalidStart &&
          keyNumber(v, keys, keys.infinityStart) === value;
        return border + keys.infinityStart + (present ? 1 : 0);
      }
      if (value === Number.POSITIVE_INFINITY) return border + keys.invalidStart;
      if (Number.isInteger(value) && value >= -TWO_63 && value < TWO_63) {
        // A float with an integral value is the same key as that integer.
        return locateInteger(
          runtime,
          L,
          entry,
          v,
          value,
          isSafeApprox(value) ? undefined : BigInt(value),
        );
      }
      return locateNumber(v, keys, border, cursor, TAG_FLOAT, 0, 0, value);
    }
    case LuaTypeTag.STRING: {
      const ptr = x.lua_topointer(L, 2);
      const hint = cursor - border - 1;
      if (hint >= 0 && keyLow(v, keys, hint) === ptr && (keyTag(v, keys, hint) & 0x0f) === 4)
        return cursor;
      const start = ptr + TSTRING_CONTENTS;
      const length = stringLength(v.u8, v.u32, ptr);
      const valid = isUtf8At(v.u8, start, start + length);
      const from = valid ? keys.stringStart : keys.invalidStart;
      const to = valid ? keys.otherStart : keys.count;
      return border + searchStrings(v, keys, from, to, start, length);
    }
    default:
      return border + locateOther(runtime, L, entry, v, type);
  }
}

/**
 * Locates an integer key: `value` is its double value, `exact` the integer itself when the
 * double is not exact (past 2^53). An integer of 1 or more that is not live in the table
 * resumes as if it were in the array part: at its index up to the border, else after it.
 */
function locateInteger(
  runtime: OrderRuntime,
  L: LuaState,
  entry: OrderEntry,
  v: MemoryViews,
  value: number,
  exact: bigint | undefined,
): number {
  const { keys, border, cursor } = entry;
  if (value >= 1 && value <= border) return value;
  const low = exact === undefined ? integerLow(value) : Number(BigInt.asIntN(32, exact));
  const high = exact === undefined ? integerHigh(value) : Number(exact >> 32n);
  const position = locateNumber(v, keys, border, cursor, TAG_INT, low, high, value);
  if (value < 1) return position;
  const index = position - border - 1;
  const listed =
    index >= 0 &&
    keyTag(v, keys, index) === TAG_INT &&
    keyLow(v, keys, index) === low &&
    keyHigh(v, keys, index) === high;
  return listed && isLive(runtime, L) ? position : border;
}

/** Whether the key at stack index 2 holds a value in the table at index 1 (raw). */
function isLive(runtime: OrderRuntime, L: LuaState): boolean {
  const { x } = runtime.state.kernel;
  x.lua_pushvalue(L, 2);
  const live = x.lua_rawget(L, 1) !== LuaTypeTag.NIL;
  x.lua_settop(L, -2);
  return live;
}

/** Locates a number key among the numbers (binary search, or the cursor when it matches). */
function locateNumber(
  v: MemoryViews,
  keys: OrderedKeys,
  border: number,
  cursor: number,
  tag: number,
  low: number,
  high: number,
  value: number,
): number {
  const hint = cursor - border - 1;
  if (
    hint >= keys.numberStart &&
    hint < keys.stringStart &&
    keyNumber(v, keys, hint) === value &&
    keyTag(v, keys, hint) === tag &&
    (tag !== TAG_INT || (keyLow(v, keys, hint) === low && keyHigh(v, keys, hint) === high))
  ) {
    return cursor;
  }
  let lo = keys.numberStart;
  let hi = keys.stringStart;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareNumberKeys(
      keyTag(v, keys, mid),
      keyLow(v, keys, mid),
      keyHigh(v, keys, mid),
      keyNumber(v, keys, mid),
      tag,
      low,
      high,
      tag === TAG_INT ? integerApprox(low, high) : value,
    );
    if (order < 0) lo = mid + 1;
    else if (order > 0) hi = mid;
    else return border + 1 + mid;
  }
  return border + lo;
}

/**
 * Binary search of a string (`length` bytes at `start`) among the strings at positions
 * [from, to); returns its position relative to the hash part start: index + 1 when found, the
 * number of keys sorting before it otherwise.
 */
function searchStrings(
  v: MemoryViews,
  keys: OrderedKeys,
  from: number,
  to: number,
  start: number,
  length: number,
): number {
  const { u8, u32 } = v;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const ptr = keyLow(v, keys, mid);
    const midLength = stringLength(u8, u32, ptr);
    const order = compareBytesAt(u8, ptr + TSTRING_CONTENTS, midLength, start, length);
    if (order < 0) lo = mid + 1;
    else if (order > 0) hi = mid;
    else return mid + 1;
  }
  return lo;
}

/**
 * Locates a table, function, userdata or thread key in the trailing group by identity;
 * returns its index + 1 when it is listed and live, else the group's start (where a key that
 * is not in the table resumes).
 */
function locateOther(
  runtime: OrderRuntime,
  L: LuaState,
  entry: OrderEntry,
  v: MemoryViews,
  type: number,
): number {
  const { x } = runtime.state.kernel;
  const { keys, border } = entry;
  // A key that is not live resumes at the start of the group, wherever it was listed.
  if (!isLive(runtime, L)) return keys.otherStart;
  if (type === LuaTypeTag.USERDATA) {
    // A full userdata's lua_topointer is its memory block, not the object a key holds.
    for (let i = keys.otherStart; i < keys.infinityStart; i++) {
      x.lua_rawgeti(L, KEYS_INDEX, BigInt(i + 1));
      const same = runtime.ix.lua_rawequal(L, 2, -1) !== 0;
      x.lua_settop(L, -2);
      if (same) return i + 1;
    }
    return keys.otherStart;
  }
  const ptr = x.lua_topointer(L, 2);
  const hint = entry.cursor - border - 1;
  if (
    hint >= keys.otherStart &&
    hint < keys.infinityStart &&
    keyLow(v, keys, hint) === ptr &&
    (keyTag(v, keys, hint) & 0x0f) === type
  ) {
    return hint + 1;
  }
  for (let i = keys.otherStart; i < keys.infinityStart; i++) {
    if (keyLow(v, keys, i) === ptr && (keyTag(v, keys, i) & 0x0f) === type) return i + 1;
  }
  return keys.otherStart;
}

/**
 * Pushes the first live key after walk position `position` and its raw value (array indexes
 * up to the border, then the key list), or `nil, nil`; returns 2.
 */
function step(runtime: OrderRuntime, L: LuaState, entry: OrderEntry, position: number): number {
  const { x, heap } = runtime.state.kernel;
  const { border, keys } = entry;
  let at = position + 1;
  if (at <= border) {
    const views = memoryViews(heap);
    const array = views.u32[(entry.table + TABLE_ARRAY) >>> 2] ?? 0;
    const asize = realArraySize(views.u8, views.u32, entry.table);
    for (; at <= border; at++) {
      if (
        at <= asize &&
        ((views.u8[array + (at - 1) * TVALUE_BYTES + TVALUE_TAG] as number) & 0x0f) === 0
      )
        continue;
      const key = BigInt(at);
      x.lua_pushinteger(L, key);
      if (x.lua_rawgeti(L, 1, key) !== LuaTypeTag.NIL) {
        entry.cursor = at;
        return 2;
      }
      x.lua_settop(L, -3);
    }
  }
  for (let i = at - border - 1; i < keys.count; i++) {
    x.lua_rawgeti(L, KEYS_INDEX, BigInt(i + 1));
    x.lua_pushvalue(L, -1);
    if (x.lua_rawget(L, 1) !== LuaTypeTag.NIL) {
      entry.cursor = border + 1 + i;
      return 2;
    }
    x.lua_settop(L, -3);
  }
  entry.cursor = 0;
  x.lua_pushnil(L);
  x.lua_pushnil(L);
  return 2;
}
