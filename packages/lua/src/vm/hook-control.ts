import type { LuaState } from "../module";
import type { CancelWatch } from "./cancel";
import type { VmWatch } from "./cancel-watchdog";
import { LUA_MASKCOUNT } from "./constants";
import type { LuaKernel } from "./kernel";

/**
 * How a VM's count hook is kept (lua-vm.md "Hook-free cancellation"):
 * - `off`: no cancel source, no hook;
 * - `hook`: the hook is armed on every thread all the time (today's design: an in-thread
 *   `shouldCancel` that must be polled, no shared memory, or the watchdog not running yet);
 * - `watched`: no hook until the watchdog sees a flag set (or the VM is cancelled on its own
 *   thread); then the hook is armed on every thread the VM runs Lua on, and stays armed. A resume
 *   that runs long also gets one-shot re-entry armings from the watchdog (lua-vm.md "Tier-up"):
 *   the hook clears itself at its first call and yields so the driver enters the interpreter
 *   again.
 */
export type HookMode = "off" | "hook" | "watched";

/**
 * Hook calls (of 1,000 instructions by default) a watchable VM runs hooked before it starts the
 * watchdog thread: about 2–5 ms of Lua. A run whose Lua is shorter never pays for the thread
 * (booting one costs tens of milliseconds of CPU, also at exit); a longer one runs hook-free
 * from the moment the thread runs.
 */
export const WATCHDOG_START_HOOK_CALLS = 1000;

/**
 * Instructions between two re-entries of the interpreter while a block runs hooked (lua-vm.md
 * "Tier-up"): about 10–20 ms of Lua. Each costs one yield and resume (~5 µs), and lets V8's
 * optimized code of the interpreter loop, once ready, take over a block that started before it
 * (a wasm frame never changes code while it runs).
 */
export const REENTER_INSTRUCTIONS = 4_000_000;

/**
 * The count hook of one VM across its threads: the main thread, the block threads and the
 * coroutines its private code creates. Every such thread is listed here for as long as it can be
 * freed only after it is unlisted (block threads until they are released, the rest until the VM
 * closes), so the watchdog only ever writes into live states.
 */
export class HookControl {
  private readonly kernel: LuaKernel;
  private readonly cancelWatch: CancelWatch;
  private readonly threads = new Set<LuaState>();
  private watch: VmWatch | undefined;
  private modeValue: HookMode;
  /** Whether the hook is armed on every thread now (always in `hook` mode). */
  private armedValue = false;
  /** Hook calls in `hook` mode before the VM asks for the watchdog thread. */
  private untilStart = WATCHDOG_START_HOOK_CALLS;
  /** Hook calls in `hook` mode between two re-entries of the interpreter. */
  private readonly reenterEvery: number;
  private untilReenter: number;
  /** Whether a block's resume (with its re-entry resumes) runs now. */
  private resumingNow = false;

  constructor(kernel: LuaKernel, cancelWatch: CancelWatch, main: LuaState) {
    this.kernel = kernel;
    this.cancelWatch = cancelWatch;
    this.threads.add(main);
    this.modeValue = "off";
    this.reenterEvery = Math.max(1, Math.ceil(REENTER_INSTRUCTIONS / cancelWatch.hookInstructions));
    this.untilReenter = this.reenterEvery;
  }

  /**
   * Chooses the mode once the state is filled: `watched` when the VM has cancel sources none of
   * which needs polling and the watchdog runs; else `hook` (armed now) or `off`.
   */
  open(main: LuaState): void {
    const { cancelWatch, kernel } = this;
    if (!cancelWatch.armed) return;
    this.modeValue = "hook";
    if (!cancelWatch.needsPolling) {
      const watch = kernel.watchVm(cancelWatch.attention, cancelWatch.hookInstructions);
      if (watch?.add(main) === true) {
        this.watch = watch;
        this.modeValue = "watched";
      } else {
        watch?.close();
      }
    }
    if (this.modeValue === "hook") this.armAll();
  }

  get mode(): HookMode {
    return this.modeValue;
  }

  /** The watch's slot is live (for tests). */
  get watched(): boolean {
    return this.watch !== undefined;
  }

  /** Whether the hook is armed now (by the VM itself or by the watchdog). */
  get armed(): boolean {
    return this.armedValue || this.watch?.armed === true;
  }

  /**
   * Called before a block's resume (`true`) and after it returned for good (`false`: re-entry
   * resumes belong to the same resume). A watched VM tells the watchdog, which arms a one-shot
   * re-entry once the resume has run long (cancel-watchdog.ts, REENTER_AFTER_MS).
   */
  resuming(running: boolean): void {
    this.resumingNow = running;
    this.watch?.resuming(running);
  }

  /**
   * Called from the hook: true when this call is a one-shot re-entry arming (or a stale one left
   * from a resume that ended meanwhile): the VM is watched and not armed for a cancel. The hook is
   * then cleared on every thread (armed again at once if a cancel arming came meanwhile), and the
   * caller yields where it can so the driver enters the interpreter again.
   */
  takeOneShot(): boolean {
    const { watch } = this;
    if (this.modeValue !== "watched" || watch === undefined || this.armed) return false;
    if (watch.clearOutsideReentry(() => this.setAll(false))) this.setAll(true);
    return true;
  }

  /** Lists a new thread (a block thread or a coroutine), which inherited its creator's hook. */
  add(L: LuaState): void {
    this.threads.add(L);
    if (this.watch !== undefined && !this.watch.add(L)) this.fallBack();
  }

  /** Unlists a thread before it can be freed. */
  remove(L: LuaState): void {
    this.threads.delete(L);
    this.watch?.remove(L);
  }

  /** Arms the hook on every listed thread from this thread (a cancel seen here). Idempotent. */
  armAll(): void {
    if (this.modeValue === "off" || this.armedValue) return;
    this.setAll(true);
    this.armedValue = true;
    this.watch?.markArmed();
  }

  /**
   * Puts the main thread's hook back after a bounded call set its own (bounded-tostring.ts):
   * armed when the VM is armed, else cleared, and armed again when the watchdog armed the VM
   * meanwhile (read after the clear, behind a fence, so no arming is lost).
   */
  restoreMain(main: LuaState): void {
    const { x, hook } = this.kernel;
    const period = this.cancelWatch.hookInstructions;
    if (this.armed) {
      x.lua_sethook(main, hook, LUA_MASKCOUNT, period);
      return;
    }
    const clear = () => x.lua_sethook(main, 0, 0, 0);
    if (this.watch === undefined) clear();
    else if (this.watch.clearOutsideReentry(clear))
      x.lua_sethook(main, hook, LUA_MASKCOUNT, period);
  }

  /**
   * Called from the hook when it found nothing to cancel. Returns true when the running block
   * should leave the interpreter and enter it again (a yield the driver resumes at once, lua-vm.md
   * "Tier-up"): right after the switch to `watched`, and every {@link REENTER_INSTRUCTIONS} while
   * the VM stays in `hook` mode.
   */
  quietHook(): boolean {
    if (this.trySwitch()) return true;
    if (this.modeValue !== "hook" || --this.untilReenter > 0) return false;
    this.untilReenter = this.reenterEvery;
    return true;
  }

  /**
   * A VM in `hook` mode only because the watchdog was not running yet starts it after
   * {@link WATCHDOG_START_HOOK_CALLS} calls, and switches to `watched` once it runs, clearing
   * its hook on every thread (the running one included: a hook may clear itself), so the rest of
   * the block runs hook-free. True when it switched.
   */
  private trySwitch(): boolean {
    if (this.modeValue !== "hook" || this.cancelWatch.needsPolling) return false;
    const { watchdog } = this.kernel;
    if (watchdog === undefined) return false;
    if (!watchdog.ready) {
      if (--this.untilStart === 0) watchdog.start();
      return false;
    }
    const watch = watchdog.watch(this.cancelWatch.attention, this.cancelWatch.hookInstructions);
    if (watch === undefined) return false;
    for (const L of this.threads) {
      if (!watch.add(L)) {
        watch.close();
        return false;
      }
    }
    if (watch.clearOutsideReentry(() => this.setAll(false))) this.setAll(true);
    this.watch = watch;
    this.modeValue = "watched";
    this.armedValue = false;
    if (this.resumingNow) watch.resuming(true);
    return true;
  }

  /** Sets (or clears) the hook on every listed thread, without marking the VM armed. */
  private setAll(on: boolean): void {
    const { x, hook } = this.kernel;
    const period = this.cancelWatch.hookInstructions;
    for (const L of this.threads) {
      if (on) x.lua_sethook(L, hook, LUA_MASKCOUNT, period);
      else x.lua_sethook(L, 0, 0, 0);
    }
  }

  /** Stops the watch (before lua_close frees the threads). */
  close(): void {
    this.watch?.close();
    this.watch = undefined;
    this.threads.clear();
  }

  /** The watch table is full: the VM arms its own hook for good. */
  private fallBack(): void {
    this.watch?.close();
    this.watch = undefined;
    this.modeValue = "hook";
    this.armAll();
  }
}
