import type { LuaKernel } from "../vm/kernel";
import type { VmState } from "../vm/vm-state";
import {
  BITRAS,
  MASK_FLAGS,
  NODE_BYTES,
  NODE_KEY,
  NODE_KEY_TAG,
  NODE_VALUE_TAG,
  realArraySize,
  STRING_TT_LONG,
  STRING_TT_SHORT,
  stringLength,
  TABLE_ALIMIT,
  TABLE_ARRAY,
  TABLE_FLAGS,
  TABLE_LSIZENODE,
  TABLE_METATABLE,
  TABLE_NODE,
  TABLE_TT,
  TABLE_TT_VALUE,
  TAG_FALSE,
  TAG_FLOAT,
  TAG_INT,
  TAG_LONG_STRING,
  TAG_SHORT_STRING,
  TAG_TRUE,
  TSTRING_CONTENTS,
  TSTRING_TT,
  TVALUE_TAG,
} from "./lua-layout";
import { memoryViews } from "./memory-views";

const checked = new WeakSet<LuaKernel>();

/** A 50-byte key: longer than LUAI_MAXSHORTLEN (40), so a long string. */
const LONG_KEY = "L".repeat(50);

/**
 * Verifies, once per wasm module, that Lua's tables, nodes and strings are laid out as
 * lua-layout.ts says, by building tables through the C API and reading them back from memory.
 * Throws an Error naming the first mismatch (a wasmoon build other than 1.16.0's Lua 5.4).
 * Runs on `state`'s main thread as a host op; leaves the stack as it found it.
 */
export function checkLayout(state: VmState): void {
  const { kernel, L } = state;
  if (checked.has(kernel)) return;
  const { x } = kernel;
  const ix = x;
  const top = x.lua_gettop(L);
  try {
    x.lua_createtable(L, 2, 4);
    const t = x.lua_topointer(L, -1);
    let v = memoryViews(kernel.heap);
    expect(v.u8[t + TABLE_TT] === TABLE_TT_VALUE, "Table.tt");
    expect(((v.u8[t + TABLE_FLAGS] ?? 0) & MASK_FLAGS) === MASK_FLAGS, "Table.flags (new)");
    expect(v.u8[t + TABLE_LSIZENODE] === 2, "Table.lsizenode");
    expect(v.u32[(t + TABLE_ALIMIT) >>> 2] === 2, "Table.alimit");
    expect(v.u32[(t + TABLE_METATABLE) >>> 2] === 0, "Table.metatable (none)");
    x.lua_pushinteger(L, 10n);
    x.lua_rawseti(L, -2, 1n);
    kernel.pushText(L, "ab");
    x.lua_pushboolean(L, 1);
    x.lua_rawset(L, -3);
    v = memoryViews(kernel.heap);
    expect(((v.u8[t + TABLE_FLAGS] ?? 0) & MASK_FLAGS) === 0, "Table.flags (cleared by a new key)");
    x.lua_pushinteger(L, 2n ** 40n);
    x.lua_pushnumber(L, 1.5);
    x.lua_rawset(L, -3);
    x.lua_pushnumber(L, 0.5);
    kernel.pushText(L, "x");
    x.lua_rawset(L, -3);
    kernel.pushText(L, LONG_KEY);
    x.lua_pushboolean(L, 0);
    x.lua_rawset(L, -3);
    v = memoryViews(kernel.heap);
    const { u8, u32, i32, f64 } = v;
    const array = u32[(t + TABLE_ARRAY) >>> 2] ?? 0;
    expect(u8[array + TVALUE_TAG] === TAG_INT && i32[array >> 2] === 10, "TValue (array part)");
    const node = u32[(t + TABLE_NODE) >>> 2] ?? 0;
    const found = new Set<string>();
    for (let i = 0, n = node; i < 4; i++, n += NODE_BYTES) {
      const keyTag = u8[n + NODE_KEY_TAG];
      const valueTag = u8[n + NODE_VALUE_TAG];
      const low = i32[(n + NODE_KEY) >> 2] ?? 0;
      const high = i32[(n + NODE_KEY + 4) >> 2] ?? 0;
      if (keyTag === TAG_SHORT_STRING && valueTag === TAG_TRUE) {
        const bytes = u8.subarray(low + TSTRING_CONTENTS, low + TSTRING_CONTENTS + 2);
        expect(u8[low + TSTRING_TT] === STRING_TT_SHORT, "TString.tt (short)");
        expect(stringLength(u8, u32, low) === 2, "TString.shrlen");
        expect(bytes[0] === 0x61 && bytes[1] === 0x62, "TString.contents");
        found.add("short string");
      } else if (keyTag === TAG_INT && valueTag === TAG_FLOAT) {
        expect(low === 0 && high === 256, "Node.key_val (integer)");
        expect(f64[n >>> 3] === 1.5, "Node value (float)");
        found.add("integer");
      } else if (keyTag === TAG_FLOAT && valueTag === TAG_SHORT_STRING) {
        expect(f64[(n + NODE_KEY) >>> 3] === 0.5, "Node.key_val (float)");
        found.add("float");
      } else if (keyTag === TAG_LONG_STRING && valueTag === TAG_FALSE) {
        expect(u8[low + TSTRING_TT] === STRING_TT_LONG, "TString.tt (long)");
        expect(stringLength(u8, u32, low) === LONG_KEY.length, "TString.u.lnglen");
        expect(u8[low + TSTRING_CONTENTS + 49] === 0x4c, "TString.contents (long)");
        found.add("long string");
      }
    }
    expect(found.size === 4, `Node layout (found ${[...found].join(", ") || "no key"})`);
    x.lua_createtable(L, 0, 0);
    const mt = x.lua_topointer(L, -1);
    x.lua_setmetatable(L, -2);
    expect(memoryViews(kernel.heap).u32[(t + TABLE_METATABLE) >>> 2] === mt, "Table.metatable");
    expect(ix.lua_rawlen(L, -1) === 1n, "lua_rawlen");
    // A border hint: array of 4 with 3 items; #t makes alimit 3 and sets BITRAS.
    x.lua_createtable(L, 4, 0);
    for (let i = 1n; i <= 3n; i++) {
      x.lua_pushinteger(L, i);
      x.lua_rawseti(L, -2, i);
    }
    expect(ix.lua_rawlen(L, -1) === 3n, "lua_rawlen (hint)");
    const hinted = x.lua_topointer(L, -1);
    v = memoryViews(kernel.heap);
    expect(((v.u8[hinted + TABLE_FLAGS] ?? 0) & BITRAS) !== 0, "Table.flags (BITRAS)");
    expect(realArraySize(v.u8, v.u32, hinted) === 4, "luaH_realasize");
  } finally {
    x.lua_settop(L, top);
  }
  checked.add(kernel);
}

function expect(ok: boolean, what: string): void {
  if (!ok) {
    throw new Error(
      `the Lua table layout differs from Lua 5.4's on wasm32 at ${what}: deterministic ` +
        "iteration needs wasmoon 1.16.0",
    );
  }
}
