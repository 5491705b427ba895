/**
 * What json.encode learns from one walk over a table's keys, and the table-shape rules of
 * "Encoding values with json.encode" decided from it.
 */

import { utf8Step } from "../json/utf8";
import { LuaTypeTag } from "../raw-api";

/** The shape a table's keys give it. */
export const TableShape = {
  /** Keys exactly 1..n (n may be 0 for a marked list): an array. */
  ARRAY: 0,
  /** Only string keys, or no keys at all on an unmarked table: an object. */
  OBJECT: 1,
  /** A key of a type the table may not hold (`has a {type} key`). */
  BAD_KEY: 2,
  /** Integer and string keys together (`mixes list items and named keys`). */
  MIXED: 3,
  /** Integer keys that are not exactly 1..n (`is missing list item [k]`). */
  MISSING: 4,
} as const;

/** One of {@link TableShape}'s values. */
export type TableShapeValue = (typeof TableShape)[keyof typeof TableShape];

/**
 * Bits for the key types that come last in the fixed key order, ranked by type name: function,
 * lightuserdata, table, thread, userdata.
 */
const OTHER_KEY_BITS: Readonly<Record<number, number>> = {
  [LuaTypeTag.FUNCTION]: 1,
  [LuaTypeTag.LIGHTUSERDATA]: 2,
  [LuaTypeTag.TABLE]: 4,
  [LuaTypeTag.THREAD]: 8,
  [LuaTypeTag.USERDATA]: 16,
};

/** Whether `heap[start, end)` is valid UTF-8. */
export function isValidUtf8At(heap: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    if ((heap[i] as number) < 0x80) {
      i++;
      continue;
    }
    const step = utf8Step(heap, i, end);
    if (step < 0) return false;
    i += step;
  }
  return true;
}

/** An empty byte array, held instead of the wasm memory between sorts. */
const NO_BYTES = new Uint8Array(0);

/** The type names of {@link OTHER_KEY_BITS}, lowest bit first. */
const OTHER_KEY_NAMES = ["function", "lightuserdata", "table", "thread", "userdata"] as const;

/** The bit of a key type that is not a number, boolean or string. */
export function otherKeyBit(typeTag: number): number {
  return OTHER_KEY_BITS[typeTag] ?? 16;
}

function grown<T extends Float64Array | Int32Array>(array: T, make: (size: number) => T): T {
  const next = make(array.length * 2);
  next.set(array);
  return next;
}

/**
 * The keys of one table, gathered in one `lua_next` walk. Integer keys are kept as doubles
 * (exact up to 2^53, and any larger key is out of every list's range anyway); string keys as
 * their address and length in wasm memory (valid while the table holds them: the walk runs no
 * Lua code). A slot is the stack index where the walk kept the key's value, or 0 when it did not
 * keep it (the stack budget ran out) and the value must be fetched again. Other keys are only
 * counted. One scratch per nesting level is reused for every table at that level.
 */
export class KeyScratch {
  /** Integer keys seen. */
  nInt = 0;
  /** The integer keys, in walk order (first {@link nInt}). */
  intKeys = new Float64Array(16);
  /** Where each integer key's value was kept (0: not kept). */
  intSlots = new Int32Array(16);
  /** Smallest integer key. */
  intMin = 0;
  /** Largest integer key. */
  intMax = 0;
  /** Whether the integer keys came in the order 1, 2, 3, ... */
  intOrdered = true;
  /** String keys seen. */
  nStr = 0;
  /** Each string key's address in wasm memory, in walk order (first {@link nStr}). */
  strPtrs = new Int32Array(16);
  /** Each string key's length in bytes. */
  strLens = new Int32Array(16);
  /** Where each string key's value was kept (0: not kept). */
  strSlots = new Int32Array(16);
  /** Float keys seen (never integral: Lua stores those as integers). */
  nFloat = 0;
  /** Boolean keys seen. */
  nBool = 0;
  /** Keys of any other type seen (tables, functions, userdata, threads). */
  nOther = 0;
  /** OR of {@link otherKeyBit} over the other keys. */
  otherMask = 0;
  /** Keys that count toward the path-key budget (neither numbers nor booleans). */
  pathKeys = 0;
  /** Indices of the string keys, sorted bytewise by {@link sortStrings}. */
  order: number[] = [];

  /** Forgets the previous table. */
  reset(): void {
    this.nInt = 0;
    this.intMin = Number.POSITIVE_INFINITY;
    this.intMax = Number.NEGATIVE_INFINITY;
    this.intOrdered = true;
    this.nStr = 0;
    this.nFloat = 0;
    this.nBool = 0;
    this.nOther = 0;
    this.otherMask = 0;
    this.pathKeys = 0;
  }

  /** Records integer key `key` whose value is kept at `slot` (0: not kept). */
  addInt(key: number, slot: number): void {
    const n = this.nInt;
    if (n === this.intKeys.length) {
      this.intKeys = grown(this.intKeys, (size) => new Float64Array(size));
      this.intSlots = grown(this.intSlots, (size) => new Int32Array(size));
    }
    this.intKeys[n] = key;
    this.intSlots[n] = slot;
    this.nInt = n + 1;
    if (key < this.intMin) this.intMin = key;
    if (key > this.intMax) this.intMax = key;
    if (key !== n + 1) this.intOrdered = false;
  }

  /** Records a string key at `ptr` (`len` bytes) whose value is kept at `slot` (0: not kept). */
  addString(ptr: number, len: number, slot: number): void {
    const n = this.nStr;
    if (n === this.strPtrs.length) {
      this.strPtrs = grown(this.strPtrs, (size) => new Int32Array(size));
      this.strLens = grown(this.strLens, (size) => new Int32Array(size));
      this.strSlots = grown(this.strSlots, (size) => new Int32Array(size));
    }
    this.strPtrs[n] = ptr;
    this.strLens[n] = len;
    this.strSlots[n] = slot;
    this.nStr = n + 1;
  }

  /** Counts a key that is neither an integer nor a string. */
  addOther(typeTag: number): void {
    if (typeTag === LuaTypeTag.NUMBER) this.nFloat++;
    else if (typeTag === LuaTypeTag.BOOLEAN) this.nBool++;
    else {
      this.nOther++;
      this.otherMask |= otherKeyBit(typeTag);
    }
  }

  /** Total keys seen. */
  get size(): number {
    return this.nInt + this.nStr + this.nFloat + this.nBool + this.nOther;
  }

  /** Whether the integer keys are exactly 1..nInt (true when there are none). */
  intsAreList(): boolean {
    return this.nInt === 0 || (this.intMin >= 1 && this.intMax === this.nInt);
  }

  /** The first of 1..nInt that is not a key (only meaningful when {@link intsAreList} fails). */
  firstMissing(): number {
    const n = this.nInt;
    const present = new Uint8Array(n + 1);
    for (let j = 0; j < n; j++) {
      const key = this.intKeys[j] as number;
      if (key >= 1 && key <= n) present[key] = 1;
    }
    for (let k = 1; k <= n; k++) if (present[k] === 0) return k;
    return n + 1;
  }

  /** The shape of the table, marked as a list or not. */
  shape(marked: boolean): TableShapeValue {
    if (marked) {
      if (this.nBool + this.nFloat + this.nStr + this.nOther > 0) return TableShape.BAD_KEY;
      return this.intsAreList() ? TableShape.ARRAY : TableShape.MISSING;
    }
    if (this.nBool + this.nFloat + this.nOther > 0) return TableShape.BAD_KEY;
    if (this.nInt === 0) return TableShape.OBJECT;
    if (this.nStr > 0) return TableShape.MIXED;
    return this.intsAreList() ? TableShape.ARRAY : TableShape.MISSING;
  }

  /**
   * The type of the first key, in the fixed key order (booleans, numbers, strings, then the
   * other types by name), that the table may not hold: for a marked list every key that is not
   * an integer, for an unmarked table every key that is neither an integer nor a string.
   */
  firstBadKeyType(marked: boolean): string {
    if (this.nBool > 0) return "boolean";
    if (this.nFloat > 0) return "number";
    if (marked && this.nStr > 0) return "string";
    return this.firstOtherKeyType();
  }

  /**
   * The type of the first key in the fixed key order, for a table with no integer keys:
   * json.encode_lines' `got a table with a {type} key`.
   */
  firstKeyType(): string {
    if (this.nBool > 0) return "boolean";
    if (this.nFloat > 0) return "number";
    if (this.nStr > 0) return "string";
    return this.firstOtherKeyType();
  }

  private firstOtherKeyType(): string {
    const mask = this.otherMask;
    for (let bit = 0; bit < OTHER_KEY_NAMES.length; bit++) {
      if ((mask & (1 << bit)) !== 0) return OTHER_KEY_NAMES[bit] as string;
    }
    return "userdata";
  }

  /** The wasm memory the string keys are read from while sorting. */
  private heap: Uint8Array = NO_BYTES;

  /** Compares string keys `a` and `b` bytewise (memcmp, then length). */
  private readonly compare = (a: number, b: number): number => {
    const heap = this.heap;
    const pa = this.strPtrs[a] as number;
    const pb = this.strPtrs[b] as number;
    const la = this.strLens[a] as number;
    const lb = this.strLens[b] as number;
    const m = Math.min(la, lb);
    for (let i = 0; i < m; i++) {
      const d = (heap[pa + i] as number) - (heap[pb + i] as number);
      if (d !== 0) return d;
    }
    return la - lb;
  };

  /**
   * The string keys' indices sorted bytewise (their bytes read from `heap`), and
   * {@link firstInvalidKey} set. Tables of one shape (the same interned key strings, walked in
   * the same order, as records in a list usually are) reuse the previous table's order: the
   * strings stay alive and in place for the whole walk, so equal addresses mean equal keys.
   * Call {@link forgetOrder} when a walk starts.
   */
  sortStrings(heap: Uint8Array): number[] {
    const n = this.nStr;
    const order = this.order;
    if (n === this.orderedCount && this.sameKeysAsOrdered()) {
      this.reused = true;
      return order;
    }
    this.reused = false;
    order.length = n;
    for (let i = 0; i < n; i++) order[i] = i;
    this.heap = heap;
    const compare = this.compare;
    if (n <= 12) {
      for (let i = 1; i < n; i++) {
        const item = order[i] as number;
        let j = i - 1;
        while (j >= 0 && compare(order[j] as number, item) > 0) {
          order[j + 1] = order[j] as number;
          j--;
        }
        order[j + 1] = item;
      }
    } else {
      order.sort(compare);
    }
    this.heap = NO_BYTES;
    this.firstInvalidKey = -1;
    for (let i = 0; i < n; i++) {
      const key = order[i] as number;
      const ptr = this.strPtrs[key] as number;
      if (!isValidUtf8At(heap, ptr, ptr + (this.strLens[key] as number))) {
        this.firstInvalidKey = key;
        break;
      }
    }
    if (this.orderedPtrs.length < n) this.orderedPtrs = new Int32Array(this.strPtrs.length);
    this.orderedPtrs.set(this.strPtrs.subarray(0, n));
    this.orderedCount = n;
    return order;
  }

  /**
   * After {@link sortStrings}: the index of the first string key in sorted order that is not
   * valid UTF-8, or -1 when every key is valid.
   */
  firstInvalidKey = -1;

  /**
   * Whether the last {@link sortStrings} reused the previous table's order (same keys), so
   * anything kept per sorted key, such as {@link keyTexts}, still applies.
   */
  reused = false;

  /** The member names as JS strings, by sorted position, filled by the encoder on first use. */
  keyTexts: string[] = [];

  /** Forgets the order kept from an earlier table (a new walk may reuse addresses). */
  forgetOrder(): void {
    this.orderedCount = -1;
  }

  /** The keys (addresses in walk order) of the table {@link order} was sorted for. */
  private orderedPtrs = new Int32Array(16);
  private orderedCount = -1;

  private sameKeysAsOrdered(): boolean {
    const ptrs = this.strPtrs;
    const ordered = this.orderedPtrs;
    for (let i = 0; i < this.nStr; i++) if (ptrs[i] !== ordered[i]) return false;
    return true;
  }
}
