import type { OrderedKeys } from "./key-list";
import {
  MODE_EVENT_BIT,
  NODE_BYTES,
  NODE_KEY,
  NODE_KEY_TAG,
  NODE_VALUE_TAG,
  realArraySize,
  TABLE_ARRAY,
  TABLE_FLAGS,
  TABLE_LSIZENODE,
  TABLE_NODE,
  TVALUE_BYTES,
  TVALUE_TAG,
} from "./lua-layout";
import type { MemoryViews } from "./memory-views";

/**
 * One table's deterministic key order, as taken at one moment, with what is needed to tell
 * later whether it still holds:
 * - the table's shape and the border its array part ended at (Lua's `#t` then, which is kept:
 *   in a table with holes `#t` also moves when keys are only read, through Lua's `alimit`
 *   hint, and a walk must not see its array part change under it);
 * - a fingerprint of every live key by slot (tag and value bytes), for the exact check
 *   ({@link stillExact}): every key live now was live then, in the same slot;
 * - the metamethod-cache bits of `Table.flags` it set ({@link armed}), for the cheap check
 *   ({@link stillArmed}): Lua clears those bits whenever a key is added to the table.
 */
export class OrderEntry {
  /** The `Table*` the order belongs to. */
  readonly table: number;
  /** The array part's border (raw `#t`) when the order was taken. */
  readonly border: number;
  /** The hash-part keys in order. */
  readonly keys: OrderedKeys;
  /** The holder slot (1-based) of the cached entry, or 0 when not cached. */
  slot = 0;
  /** When the kept order was last used (the runtime's use clock), for eviction. */
  lastUse = 0;
  /**
   * The walk position next returned last: 1..border in the array part, border + 1 + i for
   * hash key i; 0 when none. A hint only: next checks it against its argument.
   */
  cursor = 0;
  /** The `Table.flags` bits set when the order was taken (0: the cheap check is not possible). */
  armed = 0;
  // Where the table's parts were when the order was taken (no rehash since, while equal).
  private readonly node: number;
  private readonly lsizenode: number;
  private readonly array: number;
  private readonly asize: number;
  /**
   * The fingerprint: for node slot i, `prints[3i]` is its key's tag when it was live (else 0)
   * and `prints[3i + 1]`, `prints[3i + 2]` the key's value halves; then one flag per array slot
   * past the border (non-zero when it was live). One allocation per kept order.
   */
  readonly prints: Int32Array;

  /**
   * Takes the shape of `table` (a `Table*`) and, when `fingerprint` is set (orders that are
   * kept), the fingerprint of its keys, in `spare` when that is long enough (allocating a typed
   * array costs microseconds; a dropped order's fingerprint is reused).
   */
  constructor(
    views: MemoryViews,
    table: number,
    border: number,
    keys: OrderedKeys,
    fingerprint: boolean,
    spare?: Int32Array,
  ) {
    this.table = table;
    this.border = border;
    this.keys = keys;
    const { u8, u32, i32 } = views;
    this.node = u32[(table + TABLE_NODE) >>> 2] ?? 0;
    this.lsizenode = u8[table + TABLE_LSIZENODE] ?? 0;
    this.array = u32[(table + TABLE_ARRAY) >>> 2] ?? 0;
    this.asize = realArraySize(u8, u32, table);
    if (!fingerprint) {
      this.prints = NO_PRINTS;
      return;
    }
    const size = 1 << this.lsizenode;
    const past = Math.max(0, this.asize - border);
    const needed = size * 3 + past;
    let prints: Int32Array;
    if (spare !== undefined && spare.length >= needed) {
      prints = spare;
      prints.fill(0, 0, needed);
    } else {
      prints = new Int32Array(needed);
    }
    for (let i = 0, n = this.node; i < size; i++, n += NODE_BYTES) {
      if (((u8[n + NODE_VALUE_TAG] as number) & 0x0f) === 0) continue;
      prints[3 * i] = u8[n + NODE_KEY_TAG] as number;
      prints[3 * i + 1] = i32[(n + NODE_KEY) >> 2] as number;
      prints[3 * i + 2] = i32[(n + NODE_KEY + 4) >> 2] as number;
    }
    for (let j = 0, slot = this.array + border * TVALUE_BYTES; j < past; j++) {
      prints[size * 3 + j] = (u8[slot + TVALUE_TAG] as number) & 0x0f;
      slot += TVALUE_BYTES;
    }
    this.prints = prints;
  }

  /**
   * Sets the metamethod-cache bits of `Table.flags` for the events in `absentEvents` (names the
   * table does not hold: setting their bits is what Lua itself does after a failed lookup, so
   * metamethod behaviour is unchanged). Lua clears every such bit when a key is added.
   */
  arm(views: MemoryViews, absentEvents: number): void {
    const { u8 } = views;
    const at = this.table + TABLE_FLAGS;
    u8[at] = (u8[at] as number) | absentEvents;
    // __mode's bit is also set by garbage-collector traversals, so it proves nothing.
    this.armed = absentEvents & ~MODE_EVENT_BIT;
  }

  /**
   * Whether the table kept its shape and no key was added since the order was taken (the cheap
   * check: Lua clears the armed bits on every insertion).
   */
  stillArmed(views: MemoryViews): boolean {
    const { armed } = this;
    return (
      armed !== 0 &&
      ((views.u8[this.table + TABLE_FLAGS] as number) & armed) === armed &&
      this.sameShape(views)
    );
  }

  /**
   * Whether the border the order was taken with is still a border: `t[border]` is live (or the
   * border is 0). `t[border + 1]` was nil then, and stays nil while no key is added. Answers
   * undefined when the border lies past the array part (the caller asks Lua).
   */
  borderLive(views: MemoryViews): boolean | undefined {
    const { border } = this;
    if (border === 0) return true;
    if (border > this.asize) return undefined;
    const slot = this.array + (border - 1) * TVALUE_BYTES;
    return ((views.u8[slot + TVALUE_TAG] as number) & 0x0f) !== 0;
  }

  /**
   * Whether the order still holds exactly: same shape, and every key live now was live when the
   * order was taken, in the same slot. Keys removed since are allowed (walks skip them). Costs
   * one pass over the table's slots.
   */
  stillExact(views: MemoryViews): boolean {
    if (!this.sameShape(views)) return false;
    const { border, prints } = this;
    const { u8, i32 } = views;
    const { node, array, asize, lsizenode } = this;
    const size = 1 << lsizenode;
    for (let j = 0, slot = array + border * TVALUE_BYTES; j < asize - border; j++) {
      if (((u8[slot + TVALUE_TAG] as number) & 0x0f) !== 0 && prints[size * 3 + j] === 0) {
        return false;
      }
      slot += TVALUE_BYTES;
    }
    for (let i = 0, n = node; i < size; i++, n += NODE_BYTES) {
      if (((u8[n + NODE_VALUE_TAG] as number) & 0x0f) === 0) continue;
      const tag = prints[3 * i] as number;
      if (
        tag === 0 ||
        tag !== u8[n + NODE_KEY_TAG] ||
        prints[3 * i + 1] !== i32[(n + NODE_KEY) >> 2] ||
        prints[3 * i + 2] !== i32[(n + NODE_KEY + 4) >> 2]
      ) {
        return false;
      }
    }
    return true;
  }

  /** Whether the table's parts are where they were (no rehash since the order was taken). */
  private sameShape(views: MemoryViews): boolean {
    const { u8, u32 } = views;
    const { table } = this;
    return (
      u32[(table + TABLE_NODE) >>> 2] === this.node &&
      u8[table + TABLE_LSIZENODE] === this.lsizenode &&
      u32[(table + TABLE_ARRAY) >>> 2] === this.array &&
      realArraySize(u8, u32, table) === this.asize
    );
  }

  /** Bytes of JS memory the entry holds (for the cache's budget). */
  get footprint(): number {
    return this.prints.byteLength;
  }
}

/** The fingerprint of an order that is not kept. */
const NO_PRINTS = new Int32Array(0);
