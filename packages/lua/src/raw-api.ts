import type { LuaModule, LuaState, Ptr } from "./module";

/** Lua 5.4 thread status codes (`lua.h`). */
export const LuaStatus = {
  OK: 0,
  YIELD: 1,
  ERRRUN: 2,
  ERRSYNTAX: 3,
  ERRMEM: 4,
  ERRERR: 5,
} as const;

/** Lua 5.4 basic type tags (`lua.h`). */
export const LuaTypeTag = {
  NONE: -1,
  NIL: 0,
  BOOLEAN: 1,
  LIGHTUSERDATA: 2,
  NUMBER: 3,
  STRING: 4,
  TABLE: 5,
  FUNCTION: 6,
  USERDATA: 7,
  THREAD: 8,
} as const;

/** The registry pseudo-index: `-LUAI_MAXSTACK - 1000` with wasmoon's LUAI_MAXSTACK of 1,000,000. */
export const LUA_REGISTRYINDEX = -1_001_000;

/** How `luaL_loadbufferx` may read a chunk: `"t"` text only, `"b"` binary only, `"bt"` both. */
export type LoadMode = "t" | "b" | "bt";

const utf8Encoder = new TextEncoder();
/** Each load mode as a NUL-terminated C string. */
const LOAD_MODE_BYTES: Readonly<Record<LoadMode, Uint8Array>> = {
  t: utf8Encoder.encode("t\0"),
  b: utf8Encoder.encode("b\0"),
  bt: utf8Encoder.encode("bt\0"),
};
/** Non-fatal (invalid bytes become U+FFFD) and keeps a leading BOM as U+FEFF. */
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Encodes text as UTF-8 bytes; bytes pass through untouched (Lua source is bytes). */
export function toUtf8(text: string | Uint8Array): Uint8Array {
  return typeof text === "string" ? utf8Encoder.encode(text) : text;
}

/** Decodes UTF-8 bytes from Lua; invalid sequences become U+FFFD. */
export function fromUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/**
 * Thin typed wrappers around the raw exports that move bytes in and out of the wasm heap.
 *
 * Every string crosses as UTF-8 bytes with an explicit byte length, so non-ASCII text and NUL
 * bytes survive. Every `_malloc` made here is freed before the wrapper returns, except the one
 * length cell this object keeps for its whole life (one per module, never per call).
 */
export class RawLua {
  /** The module's raw exports, for calls that need no byte marshalling. */
  readonly module: LuaModule;
  /** A 4-byte cell that receives `size_t` out-parameters such as `lua_tolstring`'s length. */
  private readonly lengthCell: Ptr;

  constructor(module: LuaModule) {
    this.module = module;
    this.lengthCell = this.malloc(4);
  }

  /** `malloc` that throws instead of returning NULL. */
  malloc(size: number): Ptr {
    const ptr = this.module._malloc(size);
    if (ptr === 0) throw new RangeError(`wasm malloc of ${size} bytes failed`);
    return ptr;
  }

  /** Copies `length` bytes out of the wasm heap into a fresh JS-owned array. */
  readBytes(ptr: Ptr, length: number): Uint8Array {
    return this.module.HEAPU8.slice(ptr, ptr + length);
  }

  /**
   * The value at `idx` as a copy of its bytes (`lua_tolstring`, NUL bytes included), or `null`
   * when it is neither a string nor a number. Numbers are converted in place, as in the C API.
   */
  toBytes(L: LuaState, idx: number): Uint8Array | null {
    const ptr = this.module._lua_tolstring(L, idx, this.lengthCell);
    if (ptr === 0) return null;
    const length = this.module.HEAPU32[this.lengthCell >>> 2] ?? 0;
    return this.readBytes(ptr, length);
  }

  /** The value at `idx` decoded from UTF-8 (see {@link toBytes}), or `null`. */
  toText(L: LuaState, idx: number): string | null {
    const bytes = this.toBytes(L, idx);
    return bytes === null ? null : fromUtf8(bytes);
  }

  /**
   * `luaL_loadbufferx`: compiles `source` (its exact bytes and byte length) as a chunk named
   * `chunkName` and pushes the function, or the error message on failure. Runs nothing.
   * Returns the Lua status code.
   */
  loadBuffer(L: LuaState, source: Uint8Array, chunkName: string, mode: LoadMode): number {
    if (chunkName.includes("\0")) throw new TypeError("a Lua chunk name cannot contain NUL");
    const nameBytes = utf8Encoder.encode(chunkName);
    const modeBytes = LOAD_MODE_BYTES[mode];
    // One allocation holds the source, then the NUL-terminated name, then the NUL-terminated mode.
    const block = this.malloc(source.length + nameBytes.length + 1 + modeBytes.length);
    try {
      const namePtr = block + source.length;
      const modePtr = namePtr + nameBytes.length + 1;
      const heap = this.module.HEAPU8;
      heap.set(source, block);
      heap.set(nameBytes, namePtr);
      heap[namePtr + nameBytes.length] = 0;
      heap.set(modeBytes, modePtr);
      return this.module._luaL_loadbufferx(L, block, source.length, namePtr, modePtr);
    } finally {
      this.module._free(block);
    }
  }

  /**
   * Pushes the C string `text` (UTF-8, NUL-terminated) into a short-lived buffer, calls `use`
   * with its pointer and frees it afterwards. For field names and other short keys.
   */
  withCString<T>(text: string, use: (ptr: Ptr) => T): T {
    if (text.includes("\0")) throw new TypeError("a C string cannot contain NUL");
    const bytes = utf8Encoder.encode(`${text}\0`);
    const ptr = this.malloc(bytes.length);
    try {
      this.module.HEAPU8.set(bytes, ptr);
      return use(ptr);
    } finally {
      this.module._free(ptr);
    }
  }
}
