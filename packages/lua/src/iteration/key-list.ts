import { utf8Step } from "../json/utf8";
import {
  CACHED_EVENTS,
  NODE_BYTES,
  NODE_KEY,
  NODE_KEY_TAG,
  NODE_VALUE_TAG,
  realArraySize,
  STRING_TT_SHORT,
  stringLength,
  TABLE_ARRAY,
  TABLE_LSIZENODE,
  TABLE_NODE,
  TAG_FALSE,
  TAG_FLOAT,
  TAG_INT,
  TAG_LONG_STRING,
  TAG_SHORT_STRING,
  TAG_TRUE,
  TSTRING_CONTENTS,
  TSTRING_TT,
  TVALUE_BYTES,
  TVALUE_TAG,
} from "./lua-layout";
import type { MemoryViews } from "./memory-views";
import {
  compareNumberKeys,
  integerApprox,
  integerHigh,
  integerLow,
  isIntegerKeyValue,
  isSafeApprox,
} from "./number-order";
import { sortByteStrings } from "./sort-bytes";

/**
 * Where each group of a table's ordered hash-part keys lies. The hash part is every key except
 * the array part's integers 1..border, which a walk visits first by index. Positions run in
 * groups: booleans `[0, numberStart)`, numbers `[numberStart, stringStart)`, valid UTF-8
 * strings `[stringStart, otherStart)`, then the trailing group with no fixed order: tables,
 * functions, userdata and threads in Lua's traversal order `[otherStart, infinityStart)`, then
 * -inf and +inf `[infinityStart, invalidStart)`, then strings that are not valid UTF-8,
 * bytewise `[invalidStart, count)`.
 */
export interface KeyGroups {
  readonly count: number;
  readonly numberStart: number;
  readonly stringStart: number;
  readonly otherStart: number;
  readonly infinityStart: number;
  readonly invalidStart: number;
}

/**
 * A table's ordered hash-part keys: the groups, and `array`, the address of the TValue array of
 * the key-list table that holds them (key i at `array + 16 i`, exactly as Lua stores a key: the
 * 8 value bytes and the tag). The key list is never written after it is made, so its memory
 * stays put while the list lives. Read a key with {@link keyTag}, {@link keyLow},
 * {@link keyHigh} and {@link keyNumber}.
 */
export interface OrderedKeys extends KeyGroups {
  readonly array: number;
}

/** The tag byte of key `i`. */
export function keyTag(views: MemoryViews, keys: OrderedKeys, i: number): number {
  return views.u8[keys.array + i * TVALUE_BYTES + TVALUE_TAG] as number;
}

/** The low 32 bits of key `i`'s value (a `TString*` or object pointer for those keys). */
export function keyLow(views: MemoryViews, keys: OrderedKeys, i: number): number {
  return views.i32[(keys.array + i * TVALUE_BYTES) >> 2] as number;
}

/** The high 32 bits of key `i`'s value. */
export function keyHigh(views: MemoryViews, keys: OrderedKeys, i: number): number {
  return views.i32[(keys.array + i * TVALUE_BYTES + 4) >> 2] as number;
}

/** Number key `i`'s value as a double (the nearest double for integers past 2^53). */
export function keyNumber(views: MemoryViews, keys: OrderedKeys, i: number): number {
  const slot = keys.array + i * TVALUE_BYTES;
  return views.u8[slot + TVALUE_TAG] === TAG_INT
    ? integerApprox(views.i32[slot >> 2] as number, views.i32[(slot + 4) >> 2] as number)
    : (views.f64[slot >>> 3] as number);
}

/** What {@link KeyLister.scan} learned about the table besides its keys. */
export interface ScanFacts {
  /** Number of hash-part keys (the ordered list's length). */
  readonly count: number;
  /** Bits of `Table.flags` whose metamethod name is absent from the table (see CACHED_EVENTS). */
  readonly absentEvents: number;
}

/** A growable Int32Array. */
function grow(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let size = array.length * 2;
  while (size < needed) size *= 2;
  const grown = new Int32Array(size);
  grown.set(array);
  return grown;
}

/**
 * Lists and orders the hash-part keys of one table at a time, reading the table straight from
 * wasm memory. One per process: it keeps growable scratch buffers and never calls into Lua, so
 * it is never re-entered.
 */
export class KeyLister {
  // numbers
  private numberCount = 0;
  private numberTag = new Int32Array(64);
  private numberLow = new Int32Array(64);
  private numberHigh = new Int32Array(64);
  private numberValue = new Float64Array(64);
  private numberUnsafe = false;
  // strings (valid UTF-8, then invalid): TString pointer, content start, length
  private stringCount = 0;
  private stringPtr = new Int32Array(64);
  private stringStartAt = new Int32Array(64);
  private stringLength = new Int32Array(64);
  private stringOrder = new Int32Array(64);
  private invalidCount = 0;
  private invalidPtr = new Int32Array(16);
  private invalidStartAt = new Int32Array(16);
  private invalidLength = new Int32Array(16);
  private invalidOrder = new Int32Array(16);
  // trailing non-scalars in traversal order
  private otherCount = 0;
  private otherTag = new Int32Array(16);
  private otherLow = new Int32Array(16);
  private otherHigh = new Int32Array(16);
  private hasFalse = false;
  private hasTrue = false;
  private hasNegativeInfinity = false;
  private hasPositiveInfinity = false;

  /**
   * Reads every live key of `table` (a `Table*`) whose array part ends at `border`: the array
   * slots past the border and every node. `events` holds the `TString*` of the six names in
   * CACHED_EVENTS. Call {@link order} next, with no call into Lua in between.
   */
  scan(views: MemoryViews, table: number, border: number, events: Int32Array): ScanFacts {
    const { u8, u32 } = views;
    this.reset();
    const asize = realArraySize(u8, u32, table);
    if (asize > border) this.scanArray(u8, u32[(table + TABLE_ARRAY) >>> 2] ?? 0, border, asize);
    const node = u32[(table + TABLE_NODE) >>> 2] ?? 0;
    const size = 1 << (u8[table + TABLE_LSIZENODE] ?? 0);
    const present = this.scanNodes(views, node, size, border, events);
    return { count: this.countAll(), absentEvents: 0x3f & ~present };
  }

  /** Lists the live array slots past the border as integer keys. */
  private scanArray(u8: Uint8Array, array: number, border: number, asize: number): void {
    for (let j = border + 1; j <= asize; j++) {
      if (((u8[array + (j - 1) * TVALUE_BYTES + TVALUE_TAG] as number) & 0x0f) !== 0) {
        this.addNumber(TAG_INT, j, 0, j);
      }
    }
  }

  /**
   * Lists the live keys of the node part (`size` nodes at `node`); returns the flag bits of the
   * cached metamethod names found among them.
   */
  private scanNodes(
    views: MemoryViews,
    node: number,
    size: number,
    border: number,
    events: Int32Array,
  ): number {
    const { u8, u32, i32, f64 } = views;
    let present = 0;
    for (let i = 0, n = node; i < size; i++, n += NODE_BYTES) {
      if (((u8[n + NODE_VALUE_TAG] as number) & 0x0f) === 0) continue;
      const tag = u8[n + NODE_KEY_TAG] as number;
      const low = i32[(n + NODE_KEY) >> 2] as number;
      if (tag === TAG_SHORT_STRING || tag === TAG_LONG_STRING) {
        const start = low + TSTRING_CONTENTS;
        if (u8[start] === 0x5f) present |= eventBit(events, low);
        this.addString(u8, low, start, stringLength(u8, u32, low));
        continue;
      }
      const high = i32[(n + NODE_KEY + 4) >> 2] as number;
      if (tag === TAG_INT) {
        if (high !== 0 || low < 1 || low >>> 0 > border) {
          this.addNumber(TAG_INT, low, high, integerApprox(low, high));
        }
      } else if (tag === TAG_FLOAT) {
        const value = f64[(n + NODE_KEY) >>> 3] as number;
        if (value === Number.POSITIVE_INFINITY) this.hasPositiveInfinity = true;
        else if (value === Number.NEGATIVE_INFINITY) this.hasNegativeInfinity = true;
        else this.addNumber(TAG_FLOAT, low, high, value);
      } else if (tag === TAG_FALSE) {
        this.hasFalse = true;
      } else if (tag === TAG_TRUE) {
        this.hasTrue = true;
      } else {
        this.addOther(tag, low, high);
      }
    }
    return present;
  }

  /**
   * Sorts what {@link scan} found and writes the ordered keys as TValues from address `array`
   * on (the array part of a new table made by `lua_createtable` with at least `count` slots:
   * such a table is white, so the collector needs no barrier). Reads string bytes and writes
   * the list through `views`, so nothing may allocate between the scan and this call, except
   * creating that table (and then take `views` afresh).
   */
  order(views: MemoryViews, array: number): void {
    const { u8 } = views;
    const out = OUTPUT;
    out.views = views;
    out.array = array;
    let at = 0;
    if (this.hasFalse) at = put(out, at, TAG_FALSE, 0, 0);
    if (this.hasTrue) at = put(out, at, TAG_TRUE, 0, 0);
    at = this.orderNumbers(out, at);
    sortByteStrings(u8, this.stringStartAt, this.stringLength, this.stringOrder, this.stringCount);
    at = writeStrings(out, at, this.stringPtr, this.stringOrder, this.stringCount);
    for (let i = 0; i < this.otherCount; i++) {
      at = put(
        out,
        at,
        this.otherTag[i] as number,
        this.otherLow[i] as number,
        this.otherHigh[i] as number,
      );
    }
    if (this.hasNegativeInfinity) at = putFloat(out, at, Number.NEGATIVE_INFINITY);
    if (this.hasPositiveInfinity) at = putFloat(out, at, Number.POSITIVE_INFINITY);
    const { invalidStartAt, invalidLength, invalidOrder, invalidCount } = this;
    sortByteStrings(u8, invalidStartAt, invalidLength, invalidOrder, invalidCount);
    writeStrings(out, at, this.invalidPtr, invalidOrder, invalidCount);
  }

  /** The ordered keys {@link order} writes at `array`, for the last scan. */
  orderedKeys(array: number): OrderedKeys {
    const booleans = (this.hasFalse ? 1 : 0) + (this.hasTrue ? 1 : 0);
    const stringStart = booleans + this.numberCount;
    const otherStart = stringStart + this.stringCount;
    const infinityStart = otherStart + this.otherCount;
    const invalidStart =
      infinityStart + (this.hasNegativeInfinity ? 1 : 0) + (this.hasPositiveInfinity ? 1 : 0);
    return {
      count: invalidStart + this.invalidCount,
      numberStart: booleans,
      stringStart,
      otherStart,
      infinityStart,
      invalidStart,
      array,
    };
  }

  private countAll(): number {
    return (
      (this.hasFalse ? 1 : 0) +
      (this.hasTrue ? 1 : 0) +
      this.numberCount +
      this.stringCount +
      this.otherCount +
      (this.hasNegativeInfinity ? 1 : 0) +
      (this.hasPositiveInfinity ? 1 : 0) +
      this.invalidCount
    );
  }

  private reset(): void {
    this.numberCount = 0;
    this.numberUnsafe = false;
    this.stringCount = 0;
    this.invalidCount = 0;
    this.otherCount = 0;
    this.hasFalse = false;
    this.hasTrue = false;
    this.hasNegativeInfinity = false;
    this.hasPositiveInfinity = false;
  }

  private addNumber(tag: number, low: number, high: number, value: number): void {
    const i = this.numberCount++;
    if (i >= this.numberValue.length) {
      const grown = new Float64Array(this.numberValue.length * 2);
      grown.set(this.numberValue);
      this.numberValue = grown;
      this.numberTag = grow(this.numberTag, grown.length);
      this.numberLow = grow(this.numberLow, grown.length);
      this.numberHigh = grow(this.numberHigh, grown.length);
    }
    this.numberTag[i] = tag;
    this.numberLow[i] = low;
    this.numberHigh[i] = high;
    this.numberValue[i] = value;
    if (tag === TAG_INT && !isSafeApprox(value)) this.numberUnsafe = true;
  }

  private addString(u8: Uint8Array, ptr: number, start: number, length: number): void {
    if (isUtf8At(u8, start, start + length)) {
      const i = this.stringCount++;
      if (i >= this.stringPtr.length) {
        const size = this.stringPtr.length * 2;
        this.stringPtr = grow(this.stringPtr, size);
        this.stringStartAt = grow(this.stringStartAt, size);
        this.stringLength = grow(this.stringLength, size);
        this.stringOrder = grow(this.stringOrder, size);
      }
      this.stringPtr[i] = ptr;
      this.stringStartAt[i] = start;
      this.stringLength[i] = length;
      this.stringOrder[i] = i;
      return;
    }
    const i = this.invalidCount++;
    if (i >= this.invalidPtr.length) {
      const size = this.invalidPtr.length * 2;
      this.invalidPtr = grow(this.invalidPtr, size);
      this.invalidStartAt = grow(this.invalidStartAt, size);
      this.invalidLength = grow(this.invalidLength, size);
      this.invalidOrder = grow(this.invalidOrder, size);
    }
    this.invalidPtr[i] = ptr;
    this.invalidStartAt[i] = start;
    this.invalidLength[i] = length;
    this.invalidOrder[i] = i;
  }

  private addOther(tag: number, low: number, high: number): void {
    const i = this.otherCount++;
    if (i >= this.otherTag.length) {
      const size = this.otherTag.length * 2;
      this.otherTag = grow(this.otherTag, size);
      this.otherLow = grow(this.otherLow, size);
      this.otherHigh = grow(this.otherHigh, size);
    }
    this.otherTag[i] = tag;
    this.otherLow[i] = low;
    this.otherHigh[i] = high;
  }

  /** Writes the number keys in value order from position `at`; returns the next position. */
  private orderNumbers(out: Output, at: number): number {
    const count = this.numberCount;
    if (!this.numberUnsafe) {
      // Every number is exact as a double: sort the doubles natively, then tell integers from
      // floats by value (Lua keeps no integral float key inside the 64-bit range).
      const values = this.numberValue.subarray(0, count);
      values.sort();
      for (let i = 0; i < count; i++) {
        const value = values[i] as number;
        at = isIntegerKeyValue(value)
          ? put(out, at, TAG_INT, integerLow(value), integerHigh(value))
          : putFloat(out, at, value);
      }
      return at;
    }
    const { numberTag: tag, numberLow: low, numberHigh: high, numberValue: value } = this;
    const order = Array.from({ length: count }, (_, i) => i);
    order.sort((a, b) =>
      compareNumberKeys(
        tag[a] as number,
        low[a] as number,
        high[a] as number,
        value[a] as number,
        tag[b] as number,
        low[b] as number,
        high[b] as number,
        value[b] as number,
      ),
    );
    for (const i of order) {
      at = put(out, at, tag[i] as number, low[i] as number, high[i] as number);
    }
    return at;
  }
}

/** Where {@link KeyLister.order} writes: TValues from `array` on. */
interface Output {
  views: MemoryViews;
  array: number;
}

/** The one Output, set by each order() call (ordering never re-enters). */
const OUTPUT: Output = {
  views: {
    u8: new Uint8Array(0),
    u32: new Uint32Array(0),
    i32: new Int32Array(0),
    f64: new Float64Array(0),
  },
  array: 0,
};

/** Writes key `at` as a TValue (tag and the two halves of its value); returns `at + 1`. */
function put(out: Output, at: number, tag: number, low: number, high: number): number {
  const { u8, i32 } = out.views;
  const slot = out.array + at * TVALUE_BYTES;
  i32[slot >> 2] = low;
  i32[(slot + 4) >> 2] = high;
  u8[slot + TVALUE_TAG] = tag;
  return at + 1;
}

/**
 * Writes string keys from position `at` on: the `TString*` `pointers[order[i]]` for i in
 * [0, count); returns the next position.
 */
function writeStrings(
  out: Output,
  at: number,
  pointers: Int32Array,
  order: Int32Array,
  count: number,
): number {
  const { u8, i32 } = out.views;
  const next = at + count;
  let slot = out.array + at * TVALUE_BYTES;
  for (let i = 0; i < count; i++, slot += TVALUE_BYTES) {
    const ptr = pointers[order[i] as number] as number;
    i32[slot >> 2] = ptr;
    i32[(slot + 4) >> 2] = 0;
    u8[slot + TVALUE_TAG] =
      u8[ptr + TSTRING_TT] === STRING_TT_SHORT ? TAG_SHORT_STRING : TAG_LONG_STRING;
  }
  return next;
}

/** Writes float key `at`; returns `at + 1`. */
function putFloat(out: Output, at: number, value: number): number {
  const { u8, f64 } = out.views;
  const slot = out.array + at * TVALUE_BYTES;
  f64[slot >>> 3] = value;
  u8[slot + TVALUE_TAG] = TAG_FLOAT;
  return at + 1;
}

/** Whether the bytes `u8[start..end)` are valid UTF-8 (RFC 3629), without copying them. */
export function isUtf8At(u8: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    if ((u8[i] as number) < 0x80) {
      i++;
      continue;
    }
    const step = utf8Step(u8, i, end);
    if (step < 0) return false;
    i += step;
  }
  return true;
}

/** The flag bit of the cached metamethod named by `tstring`, or 0. */
function eventBit(events: Int32Array, tstring: number): number {
  for (let e = 0; e < CACHED_EVENTS.length; e++) if (events[e] === tstring) return 1 << e;
  return 0;
}
