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
  readonly shouldCancelEvery: number;
  readonly hookInstructions: number;
  /** Hook calls so far (for tests and benchmarks). */
  hookCalls = 0;
  private countdown: number;

  constructor(options: CancelOptions) {
    this.flag = options.cancelFlag;
    this.flagIndex = options.cancelFlagIndex ?? 0;
    this.shouldCancel = options.shouldCancel;
    this.shouldCancelEvery = positiveInteger(
      options.shouldCancelEvery ?? DEFAULT_SHOULD_CANCEL_EVERY,
      "shouldCancelEvery",
    );
    this.hookInstructions = positiveInteger(
      options.hookInstructions ?? DEFAULT_HOOK_INSTRUCTIONS,
      "hookInstructions",
    );
    this.countdown = this.shouldCancelEvery;
    if (this.flag !== undefined) {
      if (!(this.flag.buffer instanceof SharedArrayBuffer)) {
        // Atomics work on any Int32Array, but only a shared one can be set from another thread.
        throw new TypeError("cancelFlag must be an Int32Array over a SharedArrayBuffer");
      }
      if (!Number.isInteger(this.flagIndex) || this.flagIndex < 0) {
        throw new RangeError(`cancelFlagIndex must be an integer >= 0, got ${this.flagIndex}`);
      }
      if (this.flagIndex >= this.flag.length) {
        throw new RangeError(`cancelFlagIndex ${this.flagIndex} is outside the cancel flag array`);
      }
    }
  }

  /** Whether the count hook must be armed. */
  get armed(): boolean {
    return this.flag !== undefined || this.shouldCancel !== undefined;
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

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  }
  return value;
}
