import { loadLuaModule, luaInstanceOf } from "../../src/module";
import { LuaStatus } from "../../src/raw-api";
import { LuaKernel } from "../../src/vm/kernel";
import type { FnPtr } from "../../src/wasm-exports";

/** How a raw state gets its memory. */
export type AllocatorKind =
  | "luaL_newstate (no limit)"
  | "JS allocator (addFunction)"
  | "wasm limit allocator";

/**
 * Raw Lua states (base, string, table, math) built with each allocator option, to compare what
 * a memory limit costs: Lua's default `l_alloc` (no accounting), a JavaScript `lua_Alloc` added
 * with `addFunction` that counts and limits as wasmoon's `traceAllocations` does (calling the raw
 * `realloc`/`free` exports, its best case), and this package's wasm limit allocator.
 */
export class AllocatorBench {
  private readonly kernel: LuaKernel;
  private readonly jsAllocator: FnPtr;
  private readonly jsStats = { used: 0, limit: 1 << 30 };

  private constructor(kernel: LuaKernel) {
    this.kernel = kernel;
    const { x } = kernel;
    const stats = this.jsStats;
    this.jsAllocator = kernel.module.addFunction((_ud = 0, ptr = 0, osize = 0, nsize = 0) => {
      const old = ptr === 0 ? 0 : osize;
      if (nsize === 0) {
        x.free(ptr);
        stats.used -= old;
        return 0;
      }
      if (nsize > old && stats.used + nsize - old > stats.limit) return 0;
      const block = x.realloc(ptr, nsize);
      if (block !== 0) stats.used += nsize - old;
      return block;
    }, "iiiii");
  }

  static async create(): Promise<AllocatorBench> {
    const module = await loadLuaModule();
    return new AllocatorBench(new LuaKernel(module, luaInstanceOf(module)));
  }

  /** Milliseconds one run of `source` takes in a fresh state using `kind` (creation excluded). */
  runOnce(kind: AllocatorKind, source: string): number {
    const { kernel } = this;
    const { x } = kernel;
    let cell = 0;
    let L: number;
    if (kind === "luaL_newstate (no limit)") {
      L = kernel.module._luaL_newstate();
    } else if (kind === "JS allocator (addFunction)") {
      L = x.lua_newstate(this.jsAllocator, 0);
    } else {
      cell = kernel.malloc(12);
      kernel.heap.u32().set([0, 1 << 30, 0], cell >>> 2);
      L = x.lua_newstate(kernel.allocator, cell);
    }
    try {
      x.luaopen_base(L);
      for (const [name, open] of [
        ["string", x.luaopen_string],
        ["table", x.luaopen_table],
        ["math", x.luaopen_math],
      ] as const) {
        kernel.pushText(L, name);
        open(L);
        x.lua_rawset(L, 1);
      }
      x.lua_settop(L, 0);
      const bytes = new TextEncoder().encode(source);
      const buffer = kernel.malloc(bytes.length);
      kernel.heap.u8().set(bytes, buffer);
      const status = x.luaL_loadbufferx(L, buffer, bytes.length, kernel.cString("bench"), 0);
      x.free(buffer);
      if (status !== LuaStatus.OK) throw new Error(kernel.readText(L, -1));
      const start = performance.now();
      const callStatus = x.lua_pcallk(L, 0, 0, 0, 0, 0);
      const ms = performance.now() - start;
      if (callStatus !== LuaStatus.OK) throw new Error(kernel.readText(L, -1));
      return ms;
    } finally {
      x.lua_close(L);
      if (cell !== 0) x.free(cell);
    }
  }
}
