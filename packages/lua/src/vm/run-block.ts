import type { LuaState } from "../module";
import { LUA_REGISTRYINDEX, LuaStatus } from "../raw-api";
import {
  cancelledFailure,
  failureAt,
  loadChunk,
  pushArgs,
  readValuesAt,
  reasonOf,
  tracebackOf,
} from "./chunk";
import { errorValueAtTop } from "./error-values";
import type { BlockChunk, BlockOutcome } from "./outcome";
import type { HostResult } from "./values";
import type { ThreadRecord, VmState } from "./vm-state";

/**
 * Runs `chunk` in a new Lua thread of the VM, driven by `lua_resume` from JavaScript.
 *
 * When a host function returns a Promise, the thread yields (see dispatcher.ts); the driver hangs
 * its continuation on the Promise and returns to the event loop, so other VMs (and other threads
 * of this VM) keep running. When the Promise settles, the driver resumes the thread, whose
 * continuation pushes the results or raises the rejection. A cancel (hook, flag, shouldCancel,
 * LuaVm.cancel) or close ends the block with a `cancelled` failure and abandons the thread.
 */
export async function runBlock(state: VmState, chunk: BlockChunk): Promise<BlockOutcome> {
  state.assertUsable();
  // Never start a thread from inside Lua running on this VM (a host function calling runBlock).
  if (state.executing > 0) await Promise.resolve();
  state.assertUsable();
  if (pollCancel(state)) return cancelledFailure("");
  const record = newThread(state);
  let nargs: number;
  try {
    const loadStatus = loadChunk(state, record.co, chunk);
    if (loadStatus !== LuaStatus.OK) {
      const failure = state.hostOp(() => failureAt(state, record.co, reasonOf(loadStatus), ""));
      releaseThread(state, record);
      return failure;
    }
    nargs = state.hostOp(() => pushArgs(state, record.co, chunk.args));
  } catch (error) {
    releaseThread(state, record);
    throw error;
  }
  return new BlockDriver(state, record).start(nargs);
}

/** Drives one block's thread through its suspensions until it ends. */
class BlockDriver {
  private readonly state: VmState;
  private readonly record: ThreadRecord;
  private resolveOutcome: (outcome: BlockOutcome) => void = () => undefined;
  private rejectOutcome: (error: unknown) => void = () => undefined;
  private finished = false;
  /** Whether the thread is suspended on a host Promise. */
  private waiting = false;

  constructor(state: VmState, record: ThreadRecord) {
    this.state = state;
    this.record = record;
    record.onWake = () => {
      if (this.waiting) this.finish(this.cancelled());
    };
  }

  start(nargs: number): Promise<BlockOutcome> {
    const outcome = new Promise<BlockOutcome>((resolve, reject) => {
      this.resolveOutcome = resolve;
      this.rejectOutcome = reject;
    });
    this.step(nargs);
    return outcome;
  }

  private readonly onFulfilled = (result: HostResult): void => {
    this.settle({ ok: true, result });
  };

  private readonly onRejected = (error: unknown): void => {
    this.settle({ ok: false, error });
  };

  private settle(settled: ThreadRecord["settled"]): void {
    if (this.finished) return; // cancelled or closed meanwhile: the result is dropped
    this.waiting = false;
    this.record.settled = settled;
    this.step(0);
  }

  /** Resumes until the thread suspends on a host Promise or ends. */
  private step(nargs: number): void {
    const { state, record } = this;
    try {
      if (pollCancel(state)) {
        this.finish(this.cancelled());
        return;
      }
      const status = resumeThrough(state, record, nargs);
      const results = state.kernel.heap.i32()[state.kernel.intCell >> 2] ?? 0;
      if (status === LuaStatus.YIELD) {
        const pending = record.pending;
        record.pending = undefined;
        if (record.cancelYield || state.cancelled || pending === undefined) {
          this.finish(this.cancelled());
          return;
        }
        this.waiting = true;
        pending.then(this.onFulfilled, this.onRejected);
        return;
      }
      if (state.cancelled) {
        this.finish(this.cancelled());
        return;
      }
      const { co } = record;
      if (status === LuaStatus.OK) {
        const top = state.kernel.x.lua_gettop(co);
        this.finish(state.hostOp(() => readValuesAt(state, co, top - results + 1, top)));
        return;
      }
      this.finish(state.hostOp(() => failureOf(state, co, status)));
    } catch (error) {
      this.fail(error);
    }
  }

  /** A cancelled failure with the thread's traceback where it stopped. */
  private cancelled(): BlockOutcome {
    const { state, record } = this;
    if (state.closed || state.broken) return cancelledFailure("");
    return cancelledFailure(state.hostOp(() => tracebackOf(state, record.co)));
  }

  private finish(outcome: BlockOutcome): void {
    if (this.finished) return;
    this.finished = true;
    this.waiting = false;
    try {
      releaseThread(this.state, this.record);
    } catch (error) {
      this.rejectOutcome(error);
      return;
    }
    this.resolveOutcome(outcome);
  }

  private fail(error: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.waiting = false;
    this.state.threads.delete(this.record.co);
    this.state.hooks.remove(this.record.co);
    this.rejectOutcome(error);
  }
}

/**
 * The failure of a thread that ended with error `status`: the raised value, its text, the
 * traceback at the raise point, and the Engine error when the value is one of the VM's error
 * values (call inside a host op).
 */
function failureOf(state: VmState, co: LuaState, status: number): BlockOutcome {
  const failure = failureAt(state, co, reasonOf(status), tracebackOf(state, co));
  const errorValue = errorValueAtTop(state, co, failure.error);
  return errorValue === undefined ? failure : { ...failure, errorValue };
}

/** True when the VM is (now) cancelled: checks the flag and shouldCancel between resumes. */
function pollCancel(state: VmState): boolean {
  if (state.cancelled) return true;
  const watch = state.cancelWatch;
  let cancel = watch.flagSet();
  if (!cancel && watch.shouldCancel !== undefined) {
    try {
      cancel = watch.shouldCancel();
    } catch {
      cancel = true;
    }
  }
  if (cancel) state.markCancelled();
  return cancel;
}

/** A new thread anchored in the registry. */
function newThread(state: VmState): ThreadRecord {
  const { x } = state.kernel;
  const record = state.hostOp((): ThreadRecord => {
    const co = x.lua_newthread(state.L);
    const ref = x.luaL_ref(state.L, LUA_REGISTRYINDEX);
    return {
      co,
      ref,
      pending: undefined,
      pendingName: "",
      settled: undefined,
      cancelYield: false,
      reenterYield: false,
      onWake: undefined,
    };
  });
  state.threads.set(record.co, record);
  state.hooks.add(record.co);
  return record;
}

/** Unanchors a finished (or abandoned) thread so the collector can take it. */
function releaseThread(state: VmState, record: ThreadRecord): void {
  state.threads.delete(record.co);
  state.hooks.remove(record.co);
  if (state.closed || state.broken) return;
  state.hostOp(() => state.kernel.x.luaL_unref(state.L, LUA_REGISTRYINDEX, record.ref));
}

/**
 * Resumes the thread until it suspends on a host Promise, is cancelled or ends: a yield only to
 * enter the interpreter again (the hook's, which has just read the cancel sources; lua-vm.md
 * "Tier-up") is resumed at once. The watchdog sees the whole as one resume.
 */
function resumeThrough(state: VmState, record: ThreadRecord, nargs: number): number {
  state.hooks.resuming(true);
  try {
    let status = resume(state, record, nargs);
    while (status === LuaStatus.YIELD && record.reenterYield && !record.cancelYield) {
      record.reenterYield = false;
      if (state.cancelled || record.pending !== undefined) break;
      status = resume(state, record, 0);
    }
    return status;
  } finally {
    state.hooks.resuming(false);
  }
}

/**
 * One `lua_resume`; the result count is left in the kernel's int cell. No JS exception can come
 * out of Lua here (every callback catches its own), so one that does means Lua was unwound
 * without knowing: the VM is marked broken.
 */
function resume(state: VmState, record: ThreadRecord, nargs: number): number {
  const { x, intCell } = state.kernel;
  const sp = x.stackSave();
  state.executing++;
  try {
    const status = x.lua_resume(record.co, state.L, nargs, intCell);
    state.kernel.clearUnwinding();
    return status;
  } catch (error) {
    x.stackRestore(sp);
    state.broken = true;
    throw error;
  } finally {
    state.executing--;
  }
}
