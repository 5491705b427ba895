import type { WasmMemory } from "../wasm-api";

/**
 * Typed views of the wasm linear memory that follow its growth.
 *
 * A growing memory detaches its old `ArrayBuffer`, which empties every view of it, so each getter
 * re-creates the views when its own view has become empty (checking a length is far cheaper than
 * reading `memory.buffer` on every access). Never keep a view across a call into Lua, which may
 * grow the memory.
 */
export class Heap {
  private readonly memory: WasmMemory;
  /** The emscripten module's byte view, which emscripten replaces whenever the memory grows. */
  private readonly current: { readonly HEAPU8: Uint8Array } | undefined;
  private bytes: Uint8Array;
  private words: Uint32Array;
  private ints: Int32Array;

  /**
   * `current` is needed for a shared memory, whose buffer never detaches (old views keep their
   * old length after growth): the views are then re-created whenever their length differs from
   * emscripten's own view, which every growth (always through emscripten's resize) replaces.
   */
  constructor(memory: WasmMemory, current?: { readonly HEAPU8: Uint8Array }) {
    this.memory = memory;
    this.current = current;
    this.bytes = new Uint8Array(memory.buffer);
    this.words = new Uint32Array(memory.buffer);
    this.ints = new Int32Array(memory.buffer);
  }

  /** The memory as bytes. */
  u8(): Uint8Array {
    if (this.stale(this.bytes.length)) this.refresh();
    return this.bytes;
  }

  /** The memory as unsigned 32-bit words (index = byte offset >>> 2). */
  u32(): Uint32Array {
    if (this.stale(this.words.length)) this.refresh();
    return this.words;
  }

  /** The memory as signed 32-bit words (index = byte offset >> 2). */
  i32(): Int32Array {
    if (this.stale(this.ints.length)) this.refresh();
    return this.ints;
  }

  /** The current size of the linear memory in bytes (it never shrinks). */
  byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Whether a view of `length` elements is out of date (detached, or shorter than the memory). */
  private stale(length: number): boolean {
    if (length === 0) return true;
    return this.current !== undefined && this.bytes.length !== this.current.HEAPU8.length;
  }

  private refresh(): void {
    const buffer = this.memory.buffer;
    this.bytes = new Uint8Array(buffer);
    this.words = new Uint32Array(buffer);
    this.ints = new Int32Array(buffer);
  }
}
