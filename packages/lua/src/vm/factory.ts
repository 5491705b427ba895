import { loadLuaModule, luaInstanceOf } from "../module";
import { LuaKernel } from "./kernel";
import { type LuaVm, type LuaVmOptions, VmHandle } from "./lua-vm";
import WARM_UP_SOURCE from "./warm-up.lua";

/** Creates Lua VMs on the process's one wasm module. */
export interface LuaVmFactory {
  /** Creates a sandboxed, filled VM (about 20–40 µs; see bench/vm.bench.ts). */
  create(options?: LuaVmOptions): LuaVm;
  /**
   * Runs about 20 ms of CPU-bound Lua in a scratch VM so V8 tiers up the interpreter's wasm code:
   * until then, Lua runs up to 3× slower. Call it once at startup where first-run latency matters.
   */
  warmUp(): void;
  /**
   * Starts the cancel watchdog thread now (where the wasm memory is shared), so that VMs made
   * once it runs are hook-free from their first instruction (lua-vm.md "Hook-free
   * cancellation"). Without it, a VM that can be watched runs hooked, and starts the thread once
   * it has run about a million instructions (so short runs never start it), then switches its
   * hook off when the thread runs. For long-lived hosts; it costs a thread (about 10 MiB) and
   * its boot. Never waits; idempotent.
   */
  startCancelWatchdog(): void;
  /** VMs created and not yet closed. */
  readonly openVmCount: number;
  /** Size of the wasm linear memory in bytes, shared by every VM (it grows, never shrinks). */
  readonly wasmMemoryBytes: number;
}

class Factory implements LuaVmFactory {
  private readonly kernel: LuaKernel;

  constructor(kernel: LuaKernel) {
    this.kernel = kernel;
  }

  create(options: LuaVmOptions = {}): LuaVm {
    return new VmHandle(this.kernel, options);
  }

  warmUp(): void {
    const vm = this.create();
    try {
      const outcome = vm.runPrivileged({
        source: WARM_UP_SOURCE,
        chunkName: "@runvil/warm-up.lua",
      });
      if (!outcome.ok) throw new Error(`Lua VM warm-up failed: ${outcome.message}`);
    } finally {
      vm.close();
    }
  }

  startCancelWatchdog(): void {
    this.kernel.watchdog?.start();
  }

  get openVmCount(): number {
    return this.kernel.openCount;
  }

  get wasmMemoryBytes(): number {
    return this.kernel.heap.byteLength();
  }
}

let factoryPromise: Promise<LuaVmFactory> | undefined;

/**
 * Loads the wasm module (shared with loadLuaRuntime) and sets up what every VM shares: the limit
 * allocator, the host-function dispatcher, its continuation, the count hook and the panic
 * function, each added to the wasm function table once. Memoized like loadLuaRuntime; a failed
 * load is forgotten so the next call retries.
 */
export function loadLuaVmFactory(): Promise<LuaVmFactory> {
  if (factoryPromise === undefined) {
    const loading = loadLuaModule().then(
      (module): LuaVmFactory => new Factory(new LuaKernel(module, luaInstanceOf(module))),
    );
    factoryPromise = loading;
    loading.catch(() => {
      if (factoryPromise === loading) factoryPromise = undefined;
    });
  }
  return factoryPromise;
}
