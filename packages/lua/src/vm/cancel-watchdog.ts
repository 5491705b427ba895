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

/**
 * How long a watched VM's resume runs before the watchdog makes it enter the interpreter again
 * (lua-vm.md "Tier-up"), the first time; each further time within the same resume waits twice as
 * long since the resume started (25, 50, 100, 200 ms...). Timed by the watchdog's clock from the
 * poll that first sees the resume, so up to {@link WATCHDOG_POLL_MS} late.
 */
export const REENTER_AFTER_MS = 25;

// The control block (an Int32Array over a SharedArrayBuffer) shared with the watchdog thread.
const WAKE = 0; // futex word: bumped (and notified) when the watchdog should look again
const READY = 1; // 1 once the watchdog runs
const STOP = 2; // 1: the watchdog ends
const ARMINGS = 3; // VMs armed so far (for tests and benchmarks)
const VM_HIGH = 4; // VM slots in use are below this
const THREAD_HIGH = 5; // thread slots in use are below this
const FENCE = 6; // a word the VM thread bumps as a full memory fence
const REENTRY_ARMINGS = 7; // re-entry armings so far (for tests and benchmarks)
const HEADER = 8;
const MAX_FLAGS = 3;
/**
 * A VM record: [vm id (0 free), armed, flag count, (flag ref, index) × MAX_FLAGS, period,
 * resume, re-entry]. `resume` is the id of the resume the VM's thread runs now (0: none);
 * `re-entry` is odd while the watchdog writes a re-entry arming into the VM's threads.
 */
const VM_STRIDE = 6 + 2 * MAX_FLAGS;
const REC_ARMED = 1;
const REC_PERIOD = 3 + 2 * MAX_FLAGS;
const REC_RESUME = REC_PERIOD + 1;
const REC_REENTRY = REC_RESUME + 1;
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
  readonly reenterAfterMs: number;
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
 *
 * A watched VM whose resume has run for REENTER_AFTER_MS (then twice as long, and so on) gets the
 * same writes without being marked armed: a one-shot hook that clears itself and yields so that
 * the driver enters the interpreter again (lua-vm.md "Tier-up"). The re-entry word is odd while
 * those writes run, so the VM's thread clears its hooks only between them.
 */
const WATCHDOG_SOURCE = `
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { memory, control, gate, hook, mask, layout, pollMs, reenterAfterMs, port } = workerData;
const ctl = new Int32Array(control);
const flags = new Map();
const [WAKE, READY, STOP, ARMINGS, VM_HIGH, THREAD_HIGH, REENTRY_ARMINGS] = [${WAKE}, ${READY}, ${STOP}, ${ARMINGS}, ${VM_HIGH}, ${THREAD_HIGH}, ${REENTRY_ARMINGS}];
const VM_BASE = ${VM_BASE}, VM_STRIDE = ${VM_STRIDE}, THREAD_BASE = ${THREAD_BASE}, THREAD_STRIDE = ${THREAD_STRIDE};
const REC_ARMED = ${REC_ARMED}, REC_PERIOD = ${REC_PERIOD}, REC_RESUME = ${REC_RESUME}, REC_REENTRY = ${REC_REENTRY};
const MAX_CHAIN = 1000000;
const resumeSeen = new Int32Array(${MAX_WATCHED_VMS});
const resumeSince = new Float64Array(${MAX_WATCHED_VMS});
const reenterAt = new Float64Array(${MAX_WATCHED_VMS});
let heap = new Int32Array(memory.buffer);
let period = 1000;
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
function armThreads(slot) {
  const rec = VM_BASE + slot * VM_STRIDE;
  period = Atomics.load(ctl, rec + REC_PERIOD);
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
}
function armVm(slot) {
  Atomics.store(ctl, VM_BASE + slot * VM_STRIDE + REC_ARMED, 1);
  armThreads(slot);
  Atomics.add(ctl, ARMINGS, 1);
}
function armReentry(slot) {
  const rec = VM_BASE + slot * VM_STRIDE;
  Atomics.add(ctl, rec + REC_REENTRY, 1);
  try {
    armThreads(slot);
  } finally {
    Atomics.add(ctl, rec + REC_REENTRY, 1);
  }
  Atomics.add(ctl, REENTRY_ARMINGS, 1);
}
/** Arms a re-entry when the VM's current resume has run long enough (see REENTER_AFTER_MS). */
function checkResume(slot, rec) {
  const resume = Atomics.load(ctl, rec + REC_RESUME);
  if (resume === 0) return;
  const now = performance.now();
  if (resume !== resumeSeen[slot]) {
    resumeSeen[slot] = resume;
    resumeSince[slot] = now;
    reenterAt[slot] = reenterAfterMs;
  } else if (now - resumeSince[slot] >= reenterAt[slot]) {
    reenterAt[slot] *= 2;
    armReentry(slot);
  }
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
    if (Atomics.load(ctl, rec) === 0 || Atomics.load(ctl, rec + REC_ARMED) !== 0) continue;
    watching++;
    const count = Atomics.load(ctl, rec + 2);
    let set = false;
    for (let i = 0; i < count && !set; i++) {
      const flag = flags.get(Atomics.load(ctl, rec + 3 + 2 * i));
      set = flag !== undefined && Atomics.load(flag, Atomics.load(ctl, rec + 4 + 2 * i)) !== 0;
    }
    if (set) armVm(slot);
    else checkResume(slot, rec);
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
  private lastResume = 0;
  private port: { postMessage(message: unknown): void; close(): void } | undefined;
  private started = false;
  /** Why the thread could not start, when it could not. */
  failure: string | undefined;

  constructor(
    private readonly memory: object,
    private readonly gate: Ptr,
    private readonly hook: FnPtr,
    readonly layout: HookLayout,
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
        reenterAfterMs: REENTER_AFTER_MS,
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

  /** Re-entry armings the thread has made so far (lua-vm.md "Tier-up"). */
  get reentryArmings(): number {
    return Atomics.load(this.control, REENTRY_ARMINGS);
  }

  /** A new resume id, never 0, unique among the ids the watchdog may still hold. */
  nextResume(): number {
    this.lastResume = this.lastResume >= 0x7fffffff ? 1 : this.lastResume + 1;
    return this.lastResume;
  }

  /** Tells the watchdog that the VM in `slot` runs resume `id` now (0: none). */
  setResume(slot: number, id: number): void {
    Atomics.store(this.control, VM_BASE + slot * VM_STRIDE + REC_RESUME, id);
  }

  /**
   * The VM in `slot`'s re-entry word: odd while the watchdog writes a re-entry arming into its
   * threads; it changes with every arming.
   */
  reentryWord(slot: number): number {
    return Atomics.load(this.control, VM_BASE + slot * VM_STRIDE + REC_REENTRY);
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
    Atomics.store(c, rec + REC_ARMED, 0);
    Atomics.store(c, rec + REC_RESUME, 0);
    Atomics.store(c, rec + 2, flags.length);
    flags.forEach(({ flag, index }, i) => {
      Atomics.store(c, rec + 3 + 2 * i, this.refOf(flag.buffer as SharedArrayBuffer));
      Atomics.store(c, rec + 4 + 2 * i, flag.byteOffset / 4 + index);
    });
    Atomics.store(c, rec + REC_PERIOD, period);
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
    return Atomics.load(this.control, VM_BASE + slot * VM_STRIDE + REC_ARMED) !== 0;
  }

  /**
   * Whether the VM in `slot` was armed, read after a full fence: the VM thread's own plain
   * writes (a lua_sethook that clears the hook) are then visible before the read, so either the
   * read sees the arming or the watchdog's arming comes after those writes.
   */
  armedAfterFence(slot: number): boolean {
    this.fence();
    return this.armed(slot);
  }

  /**
   * A full memory fence on the VM thread (a locked read-modify-write): its plain writes before
   * it (a lua_sethook) are visible before its reads after it.
   */
  fence(): void {
    Atomics.add(this.control, FENCE, 1);
  }

  /** Marks a VM armed (by its own thread) so the watchdog leaves it. */
  markArmed(slot: number): void {
    Atomics.store(this.control, VM_BASE + slot * VM_STRIDE + REC_ARMED, 1);
  }

  /** Stops watching a VM (its threads must already be unlisted). */
  release(slot: number): void {
    Atomics.store(this.control, VM_BASE + slot * VM_STRIDE + REC_RESUME, 0);
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

  /** Tells the watchdog a resume starts (it may then arm a re-entry) or ended. */
  resuming(running: boolean): void {
    this.dog.setResume(this.slot, running ? this.dog.nextResume() : 0);
  }

  /**
   * Runs `clear` (which clears the hook of every listed thread) outside any re-entry arming of
   * the watchdog: after one that was under way has finished, and again when one started while
   * `clear` ran (its writes could otherwise land half before, half after the clear, and leave a
   * thread traced with no hook to clear it). Then reads {@link armedAfterFence}: true when a
   * cancel arming may have been undone, so the caller must arm the hook again.
   */
  clearOutsideReentry(clear: () => void): boolean {
    for (;;) {
      const word = this.settledReentryWord();
      clear();
      this.dog.fence();
      if (this.dog.reentryWord(this.slot) === word) return this.armedAfterFence();
    }
  }

  /** The re-entry word once no re-entry arming is under way (they take microseconds). */
  private settledReentryWord(): number {
    let word = this.dog.reentryWord(this.slot);
    while ((word & 1) !== 0) word = this.dog.reentryWord(this.slot);
    return word;
  }

  /** Unlists every thread and frees the slot (before lua_close). */
  close(): void {
    for (const t of this.threads.values()) this.dog.removeThread(t);
    this.threads.clear();
    this.dog.release(this.slot);
  }
}
