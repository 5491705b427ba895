import type { LuaState } from "../module";
import { TOSTRING_BUDGET_MESSAGE } from "./bounded-tostring";
import { CANCELLED_MESSAGE, type CancelWatch } from "./cancel";
import { continueHostCall, dispatchHostCall } from "./dispatcher";
import { HookControl } from "./hook-control";
import { HostFunctionTable } from "./host-functions";
import type { KernelClient, LuaKernel } from "./kernel";
import { MAX_LIMIT_BYTES, type MemoryAccount } from "./limit-allocator";
import type { LuaVm } from "./lua-vm";
import { LuaPanicError } from "./panic";
import type { HostResult } from "./values";

/** How a suspended host call's Promise settled. */
export type Settled = { ok: true; result: HostResult } | { ok: false; error: unknown };

/** A Lua thread that runBlock drives. */
export interface ThreadRecord {
  /** The thread (`lua_State*`). */
  readonly co: LuaState;
  /** Its `luaL_ref` in the registry, which keeps it from being collected. */
  readonly ref: number;
  /** The Promise of the host call the thread is suspended in. */
  pending: Promise<HostResult> | undefined;
  /** The name of that host function, for messages. */
  pendingName: string;
  /** The settled result the continuation will push (or raise). */
  settled: Settled | undefined;
  /** Set when the cancellation hook yielded the thread: it must never be resumed. */
  cancelYield: boolean;
  /**
   * Set when the hook yielded the thread only to enter the interpreter again (lua-vm.md
   * "Tier-up"): the driver resumes it at once.
   */
  reenterYield: boolean;
  /** Called when the VM is cancelled or closed (ends the block if it waits on a host Promise). */
  onWake: (() => void) | undefined;
}

/**
 * Everything one Lua VM holds: its main `lua_State`, memory account, host functions, the threads
 * runBlock drives, cancellation state and lifecycle flags. Internal to the package; LuaVm is the
 * public face. It is also the kernel's client for this state's callbacks.
 */
export class VmState implements KernelClient {
  readonly kernel: LuaKernel;
  readonly L: LuaState;
  readonly clientId: number;
  readonly account: MemoryAccount;
  /** The Lua memory limit in bytes (the account's limit when not lifted). */
  readonly limitBytes: number;
  readonly functions = new HostFunctionTable();
  readonly threads = new Map<LuaState, ThreadRecord>();
  readonly cancelWatch: CancelWatch;
  /** The count hook across the VM's threads (hook-free until a cancel, where it can be). */
  readonly hooks: HookControl;
  readonly facade: LuaVm;
  closed = false;
  /** Set after a Lua panic: the state may be inconsistent and is never used again. */
  broken = false;
  /** Nesting depth of Lua running synchronously on this VM (lua_resume / lua_pcall in flight). */
  executing = 0;
  cancelled = false;
  /**
   * Hook calls left to a bounded call (a raised value's __tostring, bounded-tostring.ts), which
   * the hook ends with an error when they run out; undefined when no such call runs.
   */
  hookBudget: number | undefined = undefined;
  /**
   * Yields of a block only to enter the interpreter again while it runs hooked (at the switch to
   * hook-free, every REENTER_INSTRUCTIONS), for tests and benchmarks.
   */
  reentries = 0;
  /** The same yields made by the watchdog's one-shot re-entry armings of a watched VM. */
  watchedReentries = 0;

  constructor(init: {
    kernel: LuaKernel;
    L: LuaState;
    clientId: number;
    account: MemoryAccount;
    limitBytes: number;
    cancelWatch: CancelWatch;
    facade: LuaVm;
  }) {
    this.kernel = init.kernel;
    this.L = init.L;
    this.clientId = init.clientId;
    this.account = init.account;
    this.limitBytes = init.limitBytes;
    this.cancelWatch = init.cancelWatch;
    this.hooks = new HookControl(init.kernel, init.cancelWatch, init.L);
    this.facade = init.facade;
  }

  dispatch(L: LuaState): number {
    return dispatchHostCall(this, L);
  }

  continueCall(L: LuaState): number {
    return continueHostCall(this, L);
  }

  /**
   * The count hook. When a cancel source fires (or already fired), it yields a runBlock thread
   * where it can (a yield from a hook passes through every pcall, so Lua code cannot swallow it)
   * and raises `cancelled` elsewhere (a C function such as table.sort's caller stands between).
   * In a watched VM not armed for a cancel, a call is the watchdog's one-shot re-entry: it
   * clears the hook, reads the cancel flag (not counted as a poll) and re-enters.
   */
  hook(L: LuaState): void {
    const { kernel } = this;
    const { x } = kernel;
    kernel.clearUnwinding();
    try {
      if (this.hookBudget !== undefined && --this.hookBudget <= 0) {
        this.kernel.pushText(L, TOSTRING_BUDGET_MESSAGE);
        x.lua_error(L);
        return;
      }
      if (!this.cancelled) {
        if (this.hookBudget === undefined && this.hooks.takeOneShot()) {
          if (!this.cancelWatch.flagSet()) {
            this.reenter(L, true);
            return;
          }
        } else if (!this.cancelWatch.poll()) {
          if (this.hookBudget === undefined && this.hooks.quietHook()) this.reenter(L, false);
          return;
        }
        this.markCancelled();
      }
      const record = this.threads.get(L);
      if (record !== undefined && x.lua_isyieldable(L) !== 0) {
        record.cancelYield = true;
        x.lua_yieldk(L, 0, 0, 0);
        return;
      }
      this.kernel.pushText(L, CANCELLED_MESSAGE);
    } catch (error) {
      if (kernel.isUnwinding(error)) throw error;
      return; // never let a JS exception unwind through Lua
    }
    x.lua_error(L);
  }

  /**
   * Yields a runBlock thread from the hook so that its driver resumes it at once: the resume
   * enters `luaV_execute` again, with the code V8 has for it now (lua-vm.md "Tier-up"). Nothing
   * happens where the thread cannot yield (a C function stands between) or is not a block's.
   * `watched`: the watchdog's one-shot arming asked for it (counted apart).
   */
  private reenter(L: LuaState, watched: boolean): void {
    const record = this.threads.get(L);
    if (record === undefined || this.kernel.x.lua_isyieldable(L) === 0) return;
    record.reenterYield = true;
    if (watched) this.watchedReentries++;
    else this.reentries++;
    this.kernel.x.lua_yieldk(L, 0, 0, 0);
  }

  /** Marks the VM cancelled (sticky) and wakes blocks waiting on host Promises. */
  markCancelled(): void {
    this.cancelled = true;
    if (!this.closed && !this.broken) this.hooks.armAll(); // a block running under a host function of this VM stops at its next hook call
    this.wake();
  }

  /** Wakes every block waiting on a host Promise (they then see `cancelled` or `closed`). */
  wake(): void {
    for (const record of [...this.threads.values()]) record.onWake?.();
  }

  /** Throws unless the VM can be used. */
  assertUsable(): void {
    if (this.closed) throw new Error("this LuaVm is closed");
    if (this.broken) throw new Error("this LuaVm is broken after a Lua panic and cannot be used");
  }

  /**
   * Runs host-side work on the state (pushing globals, reading results, creating threads) with
   * the memory limit lifted, so an unprotected allocation can never raise. `work` keeps the main
   * stack balanced; if it throws, the main stack's top is put back. A Lua panic (wasm heap
   * exhausted) restores the emscripten stack pointer, marks the VM broken and rethrows.
   */
  hostOp<T>(work: () => T): T {
    this.assertUsable();
    const { x } = this.kernel;
    const top = x.lua_gettop(this.L);
    const limit = this.account.limit;
    this.account.limit = MAX_LIMIT_BYTES;
    const sp = x.stackSave();
    try {
      const result = work();
      this.kernel.clearUnwinding(); // a finalizer may have raised inside a protected call
      return result;
    } catch (error) {
      if (error instanceof LuaPanicError) {
        x.stackRestore(sp);
        this.broken = true;
      } else {
        x.lua_settop(this.L, top);
      }
      throw error;
    } finally {
      this.account.limit = limit;
    }
  }
}
