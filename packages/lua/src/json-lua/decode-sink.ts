/**
 * The JsonSink that builds Lua values straight on a Lua stack: no intermediate JS objects.
 */

import type { JsonSink } from "../json/sink";
import type { LuaState, Ptr } from "../module";
import type { LuaKernel } from "../vm/kernel";

const ARRAY = 1;
const OBJECT = 2;

/** Deepest nesting the sink tracks: 127 levels plus json.decode_lines' wrapping list. */
const MAX_FRAMES = 130;

/** Lua integers 0..1023 as bigints, so list indices and small integers allocate nothing. */
const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

/** `n` as a bigint, from the cache when small. */
function toBigInt(n: number): bigint {
  return n >= 0 && n < 1024 ? (SMALL_BIGINTS[n] as bigint) : BigInt(n);
}

/**
 * Receives one decode's events and pushes the Lua values onto `L`: an object becomes a fresh
 * table, an array a fresh table carrying the list marker, null json.null, a string a Lua string
 * (pushed straight from the Lua string being decoded when it holds no escape), an integer a Lua
 * integer, any other number a float. Each open container sits on the stack (an object's pending
 * key above it), so everything built is reachable by the collector; when the document ends its
 * value is the one new slot on top.
 *
 * One sink serves every decode of a process: {@link LuaDecodeSink.start} resets it, so a decode
 * abandoned by a Lua memory error leaves nothing behind.
 */
export class LuaDecodeSink implements JsonSink {
  private readonly kernel: LuaKernel;
  private readonly kinds = new Uint8Array(MAX_FRAMES + 1);
  private readonly counts = new Float64Array(MAX_FRAMES + 1);
  private L: LuaState = 0;
  private depth = 0;
  private text: Uint8Array = new Uint8Array(0);
  private textPtr: Ptr = 0;
  private markerIndex = 0;
  private nullAddress: Ptr = 0;
  private scratch: Ptr = 0;
  private scratchBytes = 0;

  constructor(kernel: LuaKernel, nullAddress: Ptr) {
    this.kernel = kernel;
    this.nullAddress = nullAddress;
  }

  /**
   * Prepares a decode onto `L`: `text` is the JS copy the decoder reads, `textPtr` where the same
   * bytes sit in wasm memory (the Lua string, which never moves), `markerIndex` a stack index
   * (or upvalue pseudo-index) holding the list marker. The caller has reserved stack space.
   */
  start(L: LuaState, text: Uint8Array, textPtr: Ptr, markerIndex: number): void {
    this.L = L;
    this.text = text;
    this.textPtr = textPtr;
    this.markerIndex = markerIndex;
    this.depth = 0;
  }

  /** Drops the reference to the decoded text once a decode is over. */
  finish(): void {
    this.text = new Uint8Array(0);
  }

  /** Stores the value on top into the open container below it (nothing at the top level). */
  private add(): void {
    const depth = this.depth;
    if (depth === 0) return;
    const { x } = this.kernel;
    if (this.kinds[depth] === ARRAY) {
      const index = (this.counts[depth] as number) + 1;
      this.counts[depth] = index;
      x.lua_rawseti(this.L, -2, toBigInt(index));
    } else {
      x.lua_rawset(this.L, -3);
    }
  }

  private open(kind: number): void {
    const depth = this.depth + 1;
    this.depth = depth;
    this.kinds[depth] = kind;
    this.counts[depth] = 0;
  }

  /** Pushes `source[start, end)` as a Lua string. */
  private pushString(source: Uint8Array, start: number, end: number): void {
    const { x } = this.kernel;
    if (source === this.text) {
      x.lua_pushlstring(this.L, this.textPtr + start, end - start);
      return;
    }
    const length = end - start;
    if (length > this.scratchBytes) {
      const size = Math.max(length, this.scratchBytes * 2, 256);
      const block = this.kernel.malloc(size);
      if (this.scratch !== 0) x.free(this.scratch);
      this.scratch = block;
      this.scratchBytes = size;
    }
    this.kernel.heap.u8().set(source.subarray(start, end), this.scratch);
    x.lua_pushlstring(this.L, this.scratch, length);
  }

  beginObject(): void {
    this.kernel.x.lua_createtable(this.L, 0, 0);
    this.open(OBJECT);
  }

  key(source: Uint8Array, start: number, end: number): void {
    this.pushString(source, start, end);
  }

  endObject(): void {
    this.depth--;
    this.add();
  }

  beginArray(): void {
    const { x } = this.kernel;
    const L = this.L;
    x.lua_createtable(L, 0, 0);
    x.lua_pushvalue(L, this.markerIndex);
    x.lua_setmetatable(L, -2);
    this.open(ARRAY);
  }

  endArray(): void {
    this.depth--;
    this.add();
  }

  string(source: Uint8Array, start: number, end: number): void {
    this.pushString(source, start, end);
    this.add();
  }

  integer(value: number | bigint): void {
    this.kernel.x.lua_pushinteger(this.L, typeof value === "bigint" ? value : toBigInt(value));
    this.add();
  }

  float(value: number): void {
    this.kernel.x.lua_pushnumber(this.L, value);
    this.add();
  }

  boolean(value: boolean): void {
    this.kernel.x.lua_pushboolean(this.L, value ? 1 : 0);
    this.add();
  }

  null(): void {
    this.kernel.x.lua_pushlightuserdata(this.L, this.nullAddress);
    this.add();
  }
}
