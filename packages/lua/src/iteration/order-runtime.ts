import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import { upvalueIndex } from "../vm/constants";
import type { VmState } from "../vm/vm-state";
import type { LuaExports } from "../wasm-exports";
import { KeyLister } from "./key-list";
import {
  CACHED_EVENTS,
  realArraySize,
  TABLE_ARRAY,
  TABLE_LSIZENODE,
  TABLE_METATABLE,
} from "./lua-layout";
import { type MemoryViews, memoryViews } from "./memory-views";
import { OrderEntry } from "./order-entry";

/** Upvalue of the area's C closures holding the cached tables (a weak-valued table). */
export const TABLES_UPVALUE = upvalueIndex(2);
/** Upvalue of the area's C closures holding the cached key lists. */
export const KEY_LISTS_UPVALUE = upvalueIndex(3);
/** Upvalue of the area's C closures holding an empty table: the key list of every table whose keys are all in its array part. */
export const EMPTY_LIST_UPVALUE = upvalueIndex(4);

/** Tables whose key order a VM keeps at most (least recently used goes first). */
export const CACHE_SLOTS = 8;
/** A table's order is kept only when it has at least this many hash-part keys. */
export const CACHE_MIN_KEYS = 16;
/** JS bytes the kept orders of one VM may hold (fingerprints and key lists). */
const CACHE_BUDGET_BYTES = 16 * 1024 * 1024;

/** `BigInt(i)` for the cache slots 1..CACHE_SLOTS, made once. */
const SLOT_KEYS: readonly bigint[] = Array.from({ length: CACHE_SLOTS + 1 }, (_, i) => BigInt(i));

/** One key lister per process: it never calls into Lua, so it is never re-entered. */
const lister = new KeyLister();

/** How much a caller needs to trust a kept order. */
export type Trust = "exact" | "armed";

/**
 * One VM's deterministic-order machinery: builds a table's ordered key list (a Lua table of the
 * hash-part keys) and keeps the orders of up to {@link CACHE_SLOTS} recently walked tables,
 * with what is needed to tell whether each still holds.
 *
 * The kept Lua values live in two tables that are upvalues of the area's C closures: the
 * walked tables in a weak-valued one (so keeping an order never keeps a table alive, and a
 * table's identity is checked with `lua_rawequal`), their key lists in a plain one.
 */
export class OrderRuntime {
  readonly state: VmState;
  readonly ix: LuaExports;
  /**
   * `TString*` of each name in CACHED_EVENTS (fixed strings: they never move or die), read on
   * the first build.
   */
  private events: Int32Array | undefined;
  /** Kept orders by `Table*`. */
  private readonly entries = new Map<number, OrderEntry>();
  /** A clock of uses, for least-recently-used eviction. */
  private uses = 0;
  private readonly freeSlots: number[] = [];
  /** Fingerprint arrays of dropped orders, for the next kept ones (at most CACHE_SLOTS). */
  private readonly spares: Int32Array[] = [];
  private cachedBytes = 0;

  constructor(state: VmState) {
    this.state = state;
    this.ix = state.kernel.x;
    for (let slot = CACHE_SLOTS; slot >= 1; slot--) this.freeSlots.push(slot);
  }

  /**
   * The order of the table at stack index 1, which must be a table: pushes its key list (a Lua
   * table of `count` keys) and returns the entry. A kept order is reused when it still holds:
   * no key added (`exact` checks every slot, for pairs; `armed` trusts the metamethod-cache bits
   * that Lua clears on every key insertion, for next; see OrderEntry) and its border still a
   * border. Otherwise the order is built afresh, with Lua's `#t` now as its border, and kept for
   * next always, for pairs when the table is large enough and not weak.
   */
  orderOf(L: LuaState, trust: Trust): OrderEntry {
    const { x } = this.state.kernel;
    const table = x.lua_topointer(L, 1);
    const kept = this.entries.get(table);
    if (kept !== undefined) {
      x.lua_rawgeti(L, TABLES_UPVALUE, SLOT_KEYS[kept.slot] as bigint);
      const same = this.ix.lua_rawequal(L, 1, -1) !== 0;
      x.lua_settop(L, -2);
      if (same && this.holds(L, kept, trust)) {
        kept.lastUse = ++this.uses;
        x.lua_rawgeti(L, KEY_LISTS_UPVALUE, SLOT_KEYS[kept.slot] as bigint);
        return kept;
      }
      this.forget(L, kept);
    }
    return this.build(L, table, Number(this.ix.lua_rawlen(L, 1)), trust);
  }

  /** Whether a kept order still holds for the table at index 1. */
  private holds(L: LuaState, entry: OrderEntry, trust: Trust): boolean {
    const views = memoryViews(this.state.kernel.heap);
    // Bits cleared mean a key was added; bits never armed leave only the exact check.
    const unchanged = entry.stillArmed(views)
      ? trust === "armed" || entry.stillExact(views)
      : entry.armed === 0 && entry.stillExact(views);
    if (!unchanged) return false;
    const live = entry.borderLive(views);
    if (live !== undefined) return live;
    const { x } = this.state.kernel;
    const found = x.lua_rawgeti(L, 1, BigInt(entry.border)) !== LuaTypeTag.NIL;
    x.lua_settop(L, -2);
    return found;
  }

  /** Builds the order of the table at index 1 (`Table*` `table`), pushes its key list. */
  private build(L: LuaState, table: number, border: number, trust: Trust): OrderEntry {
    const { kernel } = this.state;
    const { x } = kernel;
    const events = this.events ?? this.readEvents(L);
    let views = memoryViews(kernel.heap);
    const weak =
      (views.u32[(table + TABLE_METATABLE) >>> 2] ?? 0) !== 0 &&
      x.luaL_getmetafield(L, 1, kernel.cString("__mode")) !== LuaTypeTag.NIL;
    let facts: ReturnType<KeyLister["scan"]>;
    if (weak) {
      // The collector may clear a weak table's entries in any allocation: allocate first.
      x.lua_settop(L, -2);
      views = memoryViews(kernel.heap);
      const capacity =
        (1 << (views.u8[table + TABLE_LSIZENODE] ?? 0)) +
        Math.max(0, realArraySize(views.u8, views.u32, table) - border);
      x.lua_createtable(L, capacity, 0);
      views = memoryViews(kernel.heap);
      facts = lister.scan(views, table, border, events);
    } else {
      // A strong table cannot change while no Lua code runs: scan, then allocate exactly.
      facts = lister.scan(views, table, border, events);
      if (facts.count === 0)
        x.lua_pushvalue(L, EMPTY_LIST_UPVALUE); // nothing to write
      else x.lua_createtable(L, facts.count, 0);
      views = memoryViews(kernel.heap);
    }
    // next keeps every order (its walk needs a steady border and must not re-sort per step);
    // pairs only those worth keeping, and never a weak table's (it would keep its keys alive).
    const keep = trust === "armed" || (!weak && facts.count >= CACHE_MIN_KEYS);
    const list = x.lua_topointer(L, -1);
    const keys = lister.orderedKeys(views.u32[(list + TABLE_ARRAY) >>> 2] ?? 0);
    lister.order(views, keys.array);
    const entry = new OrderEntry(
      views,
      table,
      border,
      keys,
      keep,
      keep ? this.spares.pop() : undefined,
    );
    if (keep) this.keep(L, entry, views, facts.absentEvents);
    return entry;
  }

  /** Reads the `TString*` of the names in CACHED_EVENTS (interned already: no allocation). */
  private readEvents(L: LuaState): Int32Array {
    const { x } = this.state.kernel;
    const events = new Int32Array(CACHED_EVENTS.length);
    CACHED_EVENTS.forEach((name, i) => {
      x.lua_pushlstring(L, this.state.kernel.cString(name), name.length);
      events[i] = x.lua_topointer(L, -1);
      x.lua_settop(L, -2);
    });
    this.events = events;
    return events;
  }

  /** Keeps `entry` (its key list is on top of the stack, its table at index 1). */
  private keep(L: LuaState, entry: OrderEntry, views: MemoryViews, absentEvents: number): void {
    const { x } = this.state.kernel;
    this.cachedBytes += entry.footprint;
    while (this.freeSlots.length === 0 || this.cachedBytes > CACHE_BUDGET_BYTES) {
      let oldest: OrderEntry | undefined;
      for (const kept of this.entries.values()) {
        if (oldest === undefined || kept.lastUse < oldest.lastUse) oldest = kept;
      }
      if (oldest === undefined) break;
      this.forget(L, oldest);
    }
    const slot = this.freeSlots.pop();
    if (slot === undefined) return; // cannot happen: forgetting frees a slot
    entry.slot = slot;
    entry.lastUse = ++this.uses;
    entry.arm(views, absentEvents);
    x.lua_pushvalue(L, 1);
    x.lua_rawseti(L, TABLES_UPVALUE, SLOT_KEYS[slot] as bigint);
    x.lua_pushvalue(L, -1);
    x.lua_rawseti(L, KEY_LISTS_UPVALUE, SLOT_KEYS[slot] as bigint);
    this.entries.set(entry.table, entry);
  }

  /** Drops a kept order and frees its slot. */
  private forget(L: LuaState, entry: OrderEntry): void {
    const { x } = this.state.kernel;
    this.entries.delete(entry.table);
    this.cachedBytes -= entry.footprint;
    x.lua_pushnil(L);
    x.lua_rawseti(L, TABLES_UPVALUE, SLOT_KEYS[entry.slot] as bigint);
    x.lua_pushnil(L);
    x.lua_rawseti(L, KEY_LISTS_UPVALUE, SLOT_KEYS[entry.slot] as bigint);
    this.freeSlots.push(entry.slot);
    entry.slot = 0;
    if (this.spares.length < CACHE_SLOTS && entry.prints.length > 0) this.spares.push(entry.prints);
  }
}
