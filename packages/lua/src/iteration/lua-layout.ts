/**
 * The memory layout of Lua 5.4's tables, nodes, values and strings in wasmoon's wasm32 build,
 * which the iteration area reads (and, for new key lists, writes) directly from JavaScript.
 *
 * Reading a table's array and node parts from linear memory costs a few nanoseconds a key,
 * against 50 to 100 ns for `lua_next` plus `lua_type` and `lua_tolstring` through the exports
 * (see docs/design/iteration.md). The offsets are those of `lobject.h` (Lua 5.4) compiled for
 * wasm32 (4-byte pointers, 8-byte `lua_Integer`/`lua_Number` aligned to 8). {@link checkLayout}
 * verifies every offset used against tables built through the C API before any VM uses them.
 */

/** `Table` field offsets. */
export const TABLE_TT = 4;
/** `Table.flags`: bits 0-5 cache absent metamethods (`maskflags`), bit 7 is `BITRAS`. */
export const TABLE_FLAGS = 6;
/** `Table.lsizenode`: log2 of the node array's size. */
export const TABLE_LSIZENODE = 7;
/** `Table.alimit`: the array part's size, or a border hint when `BITRAS` is set. */
export const TABLE_ALIMIT = 8;
/** `Table.array`: pointer to the array part (TValue[]). */
export const TABLE_ARRAY = 12;
/** `Table.node`: pointer to the node array (Node[]). */
export const TABLE_NODE = 16;
/** `Table.metatable`: pointer to the metatable, or 0. */
export const TABLE_METATABLE = 24;

/** `sizeof(Node)`. */
export const NODE_BYTES = 24;
/** `Node.u.tt_`: the value's type tag (empty when its low nibble is 0). */
export const NODE_VALUE_TAG = 8;
/** `Node.u.key_tt`: the key's type tag (collectable bit included). */
export const NODE_KEY_TAG = 9;
/** `Node.u.key_val`: the key's 8-byte value. */
export const NODE_KEY = 16;

/** `sizeof(TValue)`. */
export const TVALUE_BYTES = 16;
/** `TValue.tt_`. */
export const TVALUE_TAG = 8;

/** `TString.tt`. */
export const TSTRING_TT = 4;
/** `TString.shrlen`: the length of a short string. */
export const TSTRING_SHRLEN = 7;
/** `TString.u.lnglen`: the length of a long string. */
export const TSTRING_LNGLEN = 12;
/** `TString.contents`: the bytes. */
export const TSTRING_CONTENTS = 16;

/** Variant tags as stored in a key's or a value's tag byte (`makevariant`, `ctb`). */
export const TAG_FALSE = 0x01;
export const TAG_TRUE = 0x11;
export const TAG_INT = 0x03;
export const TAG_FLOAT = 0x13;
export const TAG_SHORT_STRING = 0x44;
export const TAG_LONG_STRING = 0x54;
/** `LUA_VTABLE` with the collectable bit. */
export const TAG_TABLE = 0x45;
/** `LUA_VSHRSTR` / `LUA_VLNGSTR` as a TString's own `tt` (no collectable bit). */
export const STRING_TT_SHORT = 0x04;
export const STRING_TT_LONG = 0x14;
/** `LUA_VTABLE` as a Table's own `tt`. */
export const TABLE_TT_VALUE = 0x05;

/** `maskflags`: the flag bits of the six cached metamethods, `__index` to `__eq`. */
export const MASK_FLAGS = 0x3f;
/** `BITRAS`: `alimit` is a border hint, not the array size. */
export const BITRAS = 0x80;

/**
 * The metamethod names whose absence `Table.flags` caches, by bit (`TM_INDEX` .. `TM_EQ`).
 * Lua clears all six bits (`invalidateTMcache`) whenever a key is added to the table.
 */
export const CACHED_EVENTS = ["__index", "__newindex", "__gc", "__mode", "__len", "__eq"] as const;

/** Bit of `__mode` in {@link MASK_FLAGS}: set by garbage-collector traversals, so never trusted. */
export const MODE_EVENT_BIT = 1 << 3;

/** The array part's real size (`luaH_realasize`). */
export function realArraySize(u8: Uint8Array, u32: Uint32Array, table: number): number {
  const limit = u32[(table + TABLE_ALIMIT) >>> 2] ?? 0;
  const flags = u8[table + TABLE_FLAGS] ?? 0;
  if ((flags & BITRAS) === 0 || (limit & (limit - 1)) === 0) return limit;
  let size = limit - 1;
  size |= size >>> 1;
  size |= size >>> 2;
  size |= size >>> 4;
  size |= size >>> 8;
  size |= size >>> 16;
  return size + 1;
}

/** A string key's byte length, from its `TString`. */
export function stringLength(u8: Uint8Array, u32: Uint32Array, tstring: number): number {
  return u8[tstring + TSTRING_TT] === STRING_TT_SHORT
    ? (u8[tstring + TSTRING_SHRLEN] ?? 0)
    : (u32[(tstring + TSTRING_LNGLEN) >>> 2] ?? 0);
}
