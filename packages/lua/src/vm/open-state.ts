import { CancelWatch } from "./cancel";
import type { LuaKernel } from "./kernel";
import { MAX_LIMIT_BYTES, MemoryAccount } from "./limit-allocator";
import type { LuaVm, LuaVmOptions } from "./lua-vm";
import { installSandbox } from "./sandbox";
import { VmState } from "./vm-state";

/** The default Lua memory limit of a VM: 64 MiB (the spec's `lua_memory_bytes` default). */
export const DEFAULT_LUA_MEMORY_BYTES = 67_108_864;

/** The largest Lua memory limit: 2 GiB, the most wasmoon's linear memory can grow to. */
export const MAX_LUA_MEMORY_BYTES = 2_147_483_648;

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

/**
 * Creates and fills a new Lua state: `lua_newstate` with the limit allocator (limit lifted while
 * the sandbox is installed), the panic function, the sandbox, then the count hook when a cancel
 * source is given, and finally the VM's memory limit.
 */
export function openVmState(kernel: LuaKernel, options: LuaVmOptions, facade: LuaVm): VmState {
  const limitBytes = memoryLimitOf(options.luaMemoryBytes);
  const randomSeed = seedOf(options.randomSeed);
  const cancelWatch = new CancelWatch(options);
  const { x } = kernel;
  const account = new MemoryAccount(x, kernel.heap, MAX_LIMIT_BYTES);
  const L = x.lua_newstate(kernel.allocator, account.cell);
  if (L === 0) {
    account.free();
    throw new RangeError("lua_newstate failed: the wasm heap is exhausted");
  }
  const state = kernel.register(
    (clientId) => new VmState({ kernel, L, clientId, account, limitBytes, cancelWatch, facade }),
  );
  kernel.tagState(L, state.clientId);
  x.lua_atpanic(L, kernel.panic);
  try {
    state.hostOp(() => installSandbox(state, randomSeed));
  } catch (error) {
    if (!state.broken) x.lua_close(L);
    kernel.unregister(state.clientId);
    if (!state.broken) account.free();
    state.closed = true;
    throw error;
  }
  state.hooks.open(L);
  account.limit = limitBytes;
  return state;
}

/** Validates `luaMemoryBytes`: an integer from 1 to 2 GiB, 64 MiB when absent. */
function memoryLimitOf(bytes: number | undefined): number {
  if (bytes === undefined) return DEFAULT_LUA_MEMORY_BYTES;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_LUA_MEMORY_BYTES) {
    throw new RangeError(
      `luaMemoryBytes must be an integer from 1 to ${MAX_LUA_MEMORY_BYTES}, got ${bytes}`,
    );
  }
  return bytes;
}

/** Validates `randomSeed`: a safe integer or a 64-bit bigint, 0 when absent. */
function seedOf(seed: number | bigint | undefined): bigint {
  if (seed === undefined) return 0n;
  if (typeof seed === "number") {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`randomSeed must be a safe integer or a bigint, got ${seed}`);
    }
    return BigInt(seed);
  }
  if (seed < MIN_INT64 || seed > MAX_INT64) {
    throw new RangeError(`randomSeed ${seed} is outside Lua's 64-bit integer range`);
  }
  return seed;
}

/**
 * Closes the state (which frees every Lua allocation, so the account drops to zero), unregisters
 * it and frees the account. Blocks waiting on host Promises are woken and end as cancelled. A
 * broken state is not closed (its memory is leaked rather than touched). No finalizer can run
 * here: the sandbox refuses `__gc` (see setmetatable-guard.ts).
 */
export function closeVmState(state: VmState): void {
  if (state.closed) return;
  if (state.executing > 0) {
    throw new Error(
      "a LuaVm cannot be closed while Lua code runs on it; close it after the host function returns",
    );
  }
  const { kernel } = state;
  const { x } = kernel;
  let freed = false;
  state.hooks.close(); // the watchdog lets go of the threads before lua_close frees them
  if (!state.broken) {
    const sp = x.stackSave();
    try {
      x.lua_close(state.L);
      freed = true;
    } catch {
      x.stackRestore(sp);
    }
  }
  state.closed = true;
  kernel.unregister(state.clientId);
  if (freed) state.account.free();
  state.wake();
  state.threads.clear();
}
