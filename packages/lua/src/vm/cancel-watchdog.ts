import type { LuaState, Ptr } from "../module";
import type { FnPtr } from "../wasm-exports";
import { LUA_MASKCOUNT } from "./constants";
import type { HookLayout } from "./hook-layout";

/** A shared flag: non-zero at `index` of an Int32Array over a SharedArrayBuffer. */
export interface SharedFlag {
  readonly flag: Int32Array;
  readonly index: number;
}

/** How often the watchdog reads the flags of the VMs it watches (while it watches any). */
export const WATCHDOG_POLL_MS = 5;

// The control block (an Int32Array over a SharedArrayBuffer) shared with the watchdog thread.
const WAKE = 0; // futex word: bumped (and notified) when the watchdog should look again
const READY = 1; // 1 once the watchdog runs
const STOP = 2; // 1: the watchdog ends
const ARMINGS = 3; // VMs armed so far (for tests and benchmarks)
const VM_HIGH = 4; // VM slots in use are below this
const THREAD_HIGH = 5; // thread slots in use are below this
const FENCE = 6; // a word the VM thread bumps as a full memory fence
const HEADER = 8;
const MAX_FLAGS = 3;
/** A VM record: [vm id (0 free), armed, flag count, (flag ref, index) × MAX_FLAGS, period]. */
const VM_STRIDE = 4 + 2 * MAX_FLAGS;
export const MAX_WATCHED_VMS = 512;
/** A thread record: [VM slot + 1 (0 free), lua_State*]. */
const THREAD_STRIDE = 2;
export const MAX_WATCHED_THREADS = 8192;
const VM_BASE = HEADER;
const THREAD_BASE = VM_BASE + MAX_WATCHED_VMS * VM_STRIDE;
const CONTROL_INTS = THREAD_BASE + MAX_WATCHED_THREADS * THREAD_STRIDE;

/** What the watchdog thread receives at start. */
interface WatchdogData {
  readonly memory: object;
  readonly control: SharedArrayBuffer;
  readonly gate: Ptr;
  readonly hook: FnPtr;
  readonly mask: number;
  readonly layout: HookLayout;
  readonly pollMs: number;
  readonly port: unknown;
}

/** The parts of node:worker_threads the watchdog uses. */
interface WorkerThreads {
  Worker: new (
    code: string,
    options: { eval: true; workerData: WatchdogData; transferList: unknown[] },
  ) => { unref(): void; on(event: "error", listener: (error: unknown) => void): void };
  MessageChannel: new () => {
    port1: { postMessage(message: unknown): void; unref?(): void; close(): void };
    port2: unknown;
  };
}

/**
 * The watchdog thread: it sleeps while no VM is watched; otherwise every `pollMs` it reads each
 * watched VM's flags, and for a VM whose flag is set it does what `lua_sethook` does, from
 * outside, on every thread the VM listed: hook, counts (the count at 1, so the hook runs at the
 * next instruction the interpreter traces), mask, then `trap = 1` in every Lua CallInfo of the
 * thread's call chain (the interpreter re-reads it on every jump: a `while true do end` sees it).
 * It holds the allocator's free gate meanwhile, so nothing it writes into can be freed under it.
 */
const WATCHDOG_SOURCE = `
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { memory, control, gate, hook, mask, layout, pollMs, port } = workerData;
const ctl = new Int32Array(control);
const flags = new Map();
const [WAKE, READY, STOP, ARMINGS, VM_HIGH, THREAD_HIGH] = [${WAKE}, ${READY}, ${STOP}, ${ARMINGS}, ${VM_HIGH}, ${THREAD_HIGH}];
const VM_BASE = ${VM_BASE}, VM_STRIDE = ${VM_STRIDE}, THREAD_BASE = ${THREAD_BASE}, THREAD_STRIDE = ${THREAD_STRIDE};
const MAX_CHAIN = 1000000;
let heap = new Int32Array(memory.buffer);
function armThread(L) {
  const h = heap;
  Atomics.store(h, (L + layout.stateHook) >> 2, hook);
  Atomics.store(h, (L + layout.stateBaseHookCount) >> 2, period);
  Atomics.store(h, (L + layout.stateHookCount) >> 2, 1);
  Atomics.store(h, (L + layout.stateHookMask) >> 2, mask);
  let ci = Atomics.load(h, (L + layout.stateCi) >> 2);
  for (let n = 0; ci !== 0 && n < MAX_CHAIN; n++) {
    const status = (Atomics.load(h, (ci + layout.ciCallStatus - 2) >> 2) >>> 16) & 0xffff;
    if ((status & layout.cistC) === 0) Atomics.store(h, (ci + layout.ciTrap) >> 2, 1);
    ci = Atomics.load(h, (ci + layout.ciPrevious) >> 2);
  }
}
let period = 1000;
function armVm(slot) {
  const rec = VM_BASE + slot * VM_STRIDE;
  Atomics.store(ctl, rec + 1, 1);
  period = Atomics.load(ctl, rec + VM_STRIDE - 1);
  if (heap.length * 4 !== memory.buffer.byteLength) heap = new Int32Array(memory.buffer);
  Atomics.store(heap, gate >> 2, 1);
  try {
    const high = Atomics.load(ctl, THREAD_HIGH);
    for (let t = 0; t < high; t++) {
      const at = THREAD_BASE + t * THREAD_STRIDE;
      if (Atomics.load(ctl, at) !== slot + 1) continue;
      const L = Atomics.load(ctl, at + 1);
      if (L !== 0 && Atomics.load(ctl, at) === slot + 1) armThread(L);
    }
  } finally {
    Atomics.store(heap, gate >> 2, 0);
  }
  Atomics.add(ctl, ARMINGS, 1);
}
Atomics.store(ctl, READY, 1);
Atomics.notify(ctl, READY);
for (;;) {
  const seen = Atomics.load(ctl, WAKE);
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
    flags.set(m.message.ref, new Int32Array(m.message.buffer));
  }
  if (Atomics.load(ctl, STOP) !== 0) break;
  const high = Atomics.load(ctl, VM_HIGH);
  let watching = 0;
  for (let slot = 0; slot < high; slot++) {
    const rec = VM_BASE + slot * VM_STRIDE;
    if (Atomics.load(ctl, rec) === 0 || Atomics.load(ctl, rec + 1) !== 0) continue;
    watching++;
    const count = Atomics.load(ctl, rec + 2);
    for (let i = 0; i < count; i++) {
      const flag = flags.get(Atomics.load(ctl, rec + 3 + 2 * i));
      if (flag !== undefined && Atomics.load(flag, Atomics.load(ctl, rec + 4 + 2 * i)) !== 0) {
        armVm(slot);
        break;
      }
    }
  }
  Atomics.wait(ctl, WAKE, seen, watching > 0 ? pollMs : Infinity);
}
`;

/** The node:worker_threads module, where the runtime has one. */
function workerThreads(): WorkerThreads | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const module = proc?.getBuiltinModule?.("node:worker_threads") as WorkerThreads | undefined;
  return typeof module?.Worker === "function" ? module : undefined;
}

/**
 * The process side of the watchdog thread that arms the count hook of running Lua from outside
 * (lua-vm.md "Hook-free cancellation"). One per kernel with a shared memory; the thread starts on
 * {@link start} and is `unref`'d (it never keeps the process alive).
 */
export class CancelWatchdog {
  private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_INTS * 4));
  private readonly flagRefs = new Map<SharedArrayBuffer, number>();
  private readonly freeVmSlots: number[] = [];
  private readonly freeThreadSlots: number[] = [];
  private vmHigh = 0;
  private threadHigh = 0;
  private port: { postMessage(message: unknown): void; close(): void } | undefined;
  private started = false;
  /** Why the thread could not start, when it could not. */
  failure: string | undefined;

  constructor(
    private readonly memory: object,
    private readonly gate: Ptr,
    private readonly hook: FnPtr,
    private readonly layout: HookLayout,
  ) {}

  /** Starts the thread (once). Its readiness shows in {@link ready}; VMs never wait for it. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const threads = workerThreads();
    if (threads === undefined) {
      this.failure = "node:worker_threads is unavailable";
      return;
    }
    try {
      const channel = new threads.MessageChannel();
      const workerData: WatchdogData = {
        memory: this.memory,
        control: this.control.buffer as SharedArrayBuffer,
        gate: this.gate,
        hook: this.hook,
        mask: LUA_MASKCOUNT,
        layout: this.layout,
        pollMs: WATCHDOG_POLL_MS,
        port: channel.port2,
      };
      const worker = new threads.Worker(WATCHDOG_SOURCE, {
        eval: true,
        workerData,
        transferList: [channel.port2],
      });
      worker.unref();
      worker.on("error", (error) => {
        this.failure = `the watchdog thread failed: ${String(error)}`;
      });
      channel.port1.unref?.();
      this.port = channel.port1;
    } catch (error) {
      this.failure = `the watchdog thread did not start: ${String(error)}`;
    }
  }

  /** Whether {@link start} was called. */
  get requested(): boolean {
    return this.started;
  }

  /** Whether the thread runs (a VM opened now is watched from the start). */
  get ready(): boolean {
    return this.failure === undefined && Atomics.load(this.control, READY) === 1;
  }

  /** VMs the thread has armed so far. */
  get armings(): number {
    return Atomics.load(this.control, ARMINGS);
  }

  /**
   * Starts watching a VM: when a flag is set, its listed threads are armed with a count hook of
   * `period`. Undefined when the thread is not ready, there are more than MAX_FLAGS flags, or
   * the table is full: the VM then keeps its own hook.
   */
  watch(flags: readonly SharedFlag[], period: number): VmWatch | undefined {
    if (!this.ready || flags.length > MAX_FLAGS || this.port === undefined) return undefined;
    const slot = this.freeVmSlots.pop() ?? (this.vmHigh < MAX_WATCHED_VMS ? this.vmHigh++ : -1);
    if (slot < 0) return undefined;
    const rec = VM_BASE + slot * VM_STRIDE;
    const c = this.control;
    Atomics.store(c, rec + 1, 0);
    Atomics.store(c, rec + 2, flags.length);
    flags.forEach(({ flag, index }, i) => {
      Atomics.store(c, rec + 3 + 2 * i, this.refOf(flag.buffer as SharedArrayBuffer));
      Atomics.store(c, rec + 4 + 2 * i, flag.byteOffset / 4 + index);
    });
    Atomics.store(c, rec + VM_STRIDE - 1, period);
    Atomics.store(c, VM_HIGH, this.vmHigh);
    Atomics.store(c, rec, 1);
    this.wake();
    return new VmWatch(this, slot);
  }

  /** Lists thread `L` under VM `slot`; false when the table is full. */
  addThread(slot: number, L: LuaState): number | undefined {
    const t =
      this.freeThreadSlots.pop() ??
      (this.threadHigh < MAX_WATCHED_THREADS ? this.threadHigh++ : -1);
    if (t < 0) return undefined;
    const at = THREAD_BASE + t * THREAD_STRIDE;
    Atomics.store(this.control, at + 1, L);
    Atomics.store(this.control, THREAD_HIGH, this.threadHigh);
    Atomics.store(this.control, at, slot + 1);
    return t;
  }

  /** Unlists a thread record (before the thread can be freed). */
  removeThread(t: number): void {
    Atomics.store(this.control, THREAD_BASE + t * THREAD_STRIDE, 0);
    this.freeThreadSlots.push(t);
  }

  /** Whether the VM in `slot` was armed by the thread. */
  armed(slot: number): boolean {
    return Atomics.load(this.control, VM_BASE + slot * VM_STRIDE + 1) !== 0;
  }

  /**
   * Whether the VM in `slot` was armed, read after a full fence: the VM thread's own plain
   * writes (a lua_sethook that clears the hook) are then visible before the read, so either the
   * read sees the arming or the watchdog's arming comes after those writes.
   */
  armedAfterFence(slot: number): boolean {
    Atomics.add(this.control, FENCE, 1);
    return this.armed(slot);
  }

  /** Marks a VM armed (by its own thread) so the watchdog leaves it. */
  markArmed(slot: number): void {
    Atomics.store(this.control, VM_BASE + slot * VM_STRIDE + 1, 1);
  }

  /** Stops watching a VM (its threads must already be unlisted). */
  release(slot: number): void {
    Atomics.store(this.control, VM_BASE + slot * VM_STRIDE, 0);
    this.freeVmSlots.push(slot);
  }

  private refOf(buffer: SharedArrayBuffer): number {
    let ref = this.flagRefs.get(buffer);
    if (ref === undefined) {
      ref = this.flagRefs.size + 1;
      this.flagRefs.set(buffer, ref);
      this.port?.postMessage({ ref, buffer });
    }
    return ref;
  }

  private wake(): void {
    Atomics.add(this.control, WAKE, 1);
    Atomics.notify(this.control, WAKE);
  }
}

/** One watched VM: its slot and its listed threads. */
export class VmWatch {
  private readonly threads = new Map<LuaState, number>();

  constructor(
    private readonly dog: CancelWatchdog,
    private readonly slot: number,
  ) {}

  /** Lists a thread; false when the table is full (the VM must then arm its own hook). */
  add(L: LuaState): boolean {
    if (this.threads.has(L)) return true;
    const t = this.dog.addThread(this.slot, L);
    if (t === undefined) return false;
    this.threads.set(L, t);
    return true;
  }

  /** Unlists a thread; call before anything can free it. */
  remove(L: LuaState): void {
    const t = this.threads.get(L);
    if (t === undefined) return;
    this.threads.delete(L);
    this.dog.removeThread(t);
  }

  /** Whether the watchdog armed the VM's threads. */
  get armed(): boolean {
    return this.dog.armed(this.slot);
  }

  /** {@link CancelWatchdog.armedAfterFence} for this VM. */
  armedAfterFence(): boolean {
    return this.dog.armedAfterFence(this.slot);
  }

  /** Tells the watchdog the VM armed itself. */
  markArmed(): void {
    this.dog.markArmed(this.slot);
  }

  /** Unlists every thread and frees the slot (before lua_close). */
  close(): void {
    for (const t of this.threads.values()) this.dog.removeThread(t);
    this.threads.clear();
    this.dog.release(this.slot);
  }
}
