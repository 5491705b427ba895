import type { SharedFlag } from "./cancel-watchdog";

/** The message of the Lua error the cancellation hook raises where it cannot yield. */
export const CANCELLED_MESSAGE = "cancelled";

/** Instructions between two calls of the cancellation hook, by default. */
export const DEFAULT_HOOK_INSTRUCTIONS = 1000;

/** Hook calls between two calls of `shouldCancel`, by default. */
export const DEFAULT_SHOULD_CANCEL_EVERY = 16;

/** How a VM learns that it must stop (see LuaVmOptions). */
export interface CancelOptions {
  cancelFlag?: Int32Array | undefined;
  cancelFlagIndex?: number | undefined;
  shouldCancel?: (() => boolean) | undefined;
  shouldCancelFlags?: readonly SharedFlag[] | undefined;
  shouldCancelEvery?: number | undefined;
  hookInstructions?: number | undefined;
}

/**
 * The cancellation sources of one VM: a shared flag another thread can set (read with
 * `Atomics.load` on every hook call) and an in-thread `shouldCancel` callback (called every
 * `shouldCancelEvery` hook calls, for deadlines). The count hook is armed only when at least one
 * source exists; `hookInstructions` is its period.
 */
export class CancelWatch {
  readonly flag: Int32Array | undefined;
  readonly flagIndex: number;
  readonly shouldCancel: (() => boolean) | undefined;
  /**
   * The shared flags that can turn `shouldCancel` true while Lua runs, when the caller declared
   * them; undefined when `shouldCancel` must be polled while Lua runs (a deadline).
   */
  readonly shouldCancelFlags: readonly SharedFlag[] | undefined;
  readonly shouldCancelEvery: number;
  readonly hookInstructions: number;
  /** Hook calls so far (for tests and benchmarks). */
  hookCalls = 0;
  private countdown: number;

  constructor(options: CancelOptions) {
    this.flag = options.cancelFlag;
    this.flagIndex = options.cancelFlagIndex ?? 0;
    this.shouldCancel = options.shouldCancel;
    this.shouldCancelFlags = options.shouldCancelFlags?.map((flag, i) =>
      checkedFlag(flag.flag, flag.index, `shouldCancelFlags[${i}]`),
    );
    this.shouldCancelEvery = positiveInteger(
      options.shouldCancelEvery ?? DEFAULT_SHOULD_CANCEL_EVERY,
      "shouldCancelEvery",
    );
    this.hookInstructions = positiveInteger(
      options.hookInstructions ?? DEFAULT_HOOK_INSTRUCTIONS,
      "hookInstructions",
    );
    this.countdown = this.shouldCancelEvery;
    if (this.flag !== undefined) checkedFlag(this.flag, this.flagIndex, "cancelFlag");
  }

  /** Whether the VM has a cancel source that can stop running Lua (a hook is needed). */
  get armed(): boolean {
    return this.flag !== undefined || this.shouldCancel !== undefined;
  }

  /**
   * Whether the hook must stay armed while Lua runs: `shouldCancel` is an in-thread check
   * without declared flags, so only polling can see it turn true. Otherwise the VM can run
   * hook-free and have the watchdog arm the hook when one of {@link attention} is set.
   */
  get needsPolling(): boolean {
    return this.shouldCancel !== undefined && this.shouldCancelFlags === undefined;
  }

  /** The shared flags whose setting must arm the hook: the cancel flag and shouldCancel's. */
  get attention(): SharedFlag[] {
    const flags: SharedFlag[] = [];
    if (this.flag !== undefined) flags.push({ flag: this.flag, index: this.flagIndex });
    flags.push(...(this.shouldCancelFlags ?? []));
    return flags;
  }

  /** Whether the shared flag is set now (false without a flag). */
  flagSet(): boolean {
    return this.flag !== undefined && Atomics.load(this.flag, this.flagIndex) !== 0;
  }

  /**
   * One hook call: true when a source asks to cancel. A `shouldCancel` that throws counts as a
   * request to cancel (the hook must never let a JS exception unwind through Lua).
   */
  poll(): boolean {
    this.hookCalls++;
    if (this.flag !== undefined && Atomics.load(this.flag, this.flagIndex) !== 0) return true;
    if (this.shouldCancel === undefined) return false;
    if (--this.countdown > 0) return false;
    this.countdown = this.shouldCancelEvery;
    try {
      return this.shouldCancel();
    } catch {
      return true;
    }
  }
}

/** Checks a shared flag option; returns it. */
function checkedFlag(flag: Int32Array, index: number, name: string): SharedFlag {
  if (!(flag instanceof Int32Array) || !(flag.buffer instanceof SharedArrayBuffer)) {
    // Atomics work on any Int32Array, but only a shared one can be set from another thread.
    throw new TypeError(`${name} must be an Int32Array over a SharedArrayBuffer`);
  }
  const indexName = name === "cancelFlag" ? "cancelFlagIndex" : `${name}.index`;
  if (!Number.isInteger(index) || index < 0) {
    throw new RangeError(`${indexName} must be an integer >= 0, got ${index}`);
  }
  if (index >= flag.length) {
    const what = name === "cancelFlag" ? "the cancel flag array" : `${name}.flag`;
    throw new RangeError(`${indexName} ${index} is outside ${what}`);
  }
  return { flag, index };
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  }
  return value;
}
