import type { LuaModule, Ptr } from "../module";
import { wasmApi } from "../wasm-api";
import type { FnPtr, LuaExports } from "../wasm-exports";
import type { Heap } from "./heap";
import { limitAllocatorWasm } from "./limit-allocator-wasm";

/** The largest limit the allocator's u32 cells hold; also the "no limit" value. */
export const MAX_LIMIT_BYTES = 0xffff_ffff;

/** Bytes of one accounting cell: used, limit, refusals (three u32). */
const CELL_BYTES = 12;

/**
 * Instantiates the limit allocator (see limit-allocator-wasm.ts) against wasmoon's memory and
 * `realloc` / `free`, and puts it in the function table. Once per module: returns the function
 * pointer to pass to `lua_newstate`. The function is a wasm function, so `addFunction` stores it
 * in the table as is (no JavaScript thunk).
 */
export function installLimitAllocator(module: LuaModule, exports: LuaExports, gate?: Ptr): FnPtr {
  const api = wasmApi();
  const bytes = limitAllocatorWasm(gate === undefined ? {} : { gate });
  const instance = new api.Instance(new api.Module(bytes), {
    env: { memory: exports.memory, realloc: exports.realloc, free: exports.free },
  });
  const alloc = instance.exports.alloc as (...args: number[]) => number;
  return module.addFunction(alloc, "iiiii");
}

/**
 * The memory account of one Lua state: the `ud` cell its allocator reads and updates, living in
 * the wasm heap. `used` is the bytes the state holds (what Lua asked for, not malloc's overhead);
 * an allocation that would take `used` past `limit` is refused, and Lua raises
 * `not enough memory` after an emergency collection.
 */
export class MemoryAccount {
  /** The cell's address, passed to `lua_newstate` as the allocator's `ud`. */
  readonly cell: Ptr;
  private readonly heap: Heap;
  private readonly exports: LuaExports;
  private freed = false;

  constructor(exports: LuaExports, heap: Heap, limitBytes: number) {
    this.exports = exports;
    this.heap = heap;
    const cell = exports.malloc(CELL_BYTES);
    if (cell === 0) throw new RangeError("wasm malloc failed for a Lua memory account");
    this.cell = cell;
    const words = heap.u32();
    words[cell >>> 2] = 0;
    words[(cell >>> 2) + 1] = limitBytes;
    words[(cell >>> 2) + 2] = 0;
  }

  /** Bytes the state holds now. */
  get used(): number {
    return this.heap.u32()[this.cell >>> 2] ?? 0;
  }

  /** The limit in bytes now in force ({@link MAX_LIMIT_BYTES} while lifted). */
  get limit(): number {
    return this.heap.u32()[(this.cell >>> 2) + 1] ?? 0;
  }

  set limit(bytes: number) {
    this.heap.u32()[(this.cell >>> 2) + 1] = bytes;
  }

  /** How many allocations the limit has refused so far (Lua retries once after a full GC). */
  get refusals(): number {
    return this.heap.u32()[(this.cell >>> 2) + 2] ?? 0;
  }

  /** Frees the cell; only after the state that used it is closed. Idempotent. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.exports.free(this.cell);
  }
}
