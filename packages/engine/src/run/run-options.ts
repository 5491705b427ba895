import type { JsonObject } from "@runvil/parser";
import type { EffectPort, RunCatalog } from "@runvil/protocol";
import { formatSysWhen } from "../lua";
import { checkSeed } from "../untrusted/nonce";

/** Limits the Harness may set for a run; a limit left out keeps the default. */
export interface RunLimits {
  /** The log event quota of each section VM (default 1024). */
  readonly logEvents?: number;
  /** The Lua memory limit of each section VM in bytes (default 67108864). */
  readonly luaMemoryBytes?: number;
}

/** Everything a run is started with. Only `effects` is required. */
export interface RunOptions {
  /** Where every effect goes and every event is reported. */
  readonly effects: EffectPort;
  /** The argument string (`args`); absent: `''`. */
  readonly args?: string;
  /** The execution name (`sys.execution`); default `run-1`. */
  readonly execution?: string;
  /** The run seed, a whole number from 0 to 2^64 − 1 (the nonce derives from it); default 0. */
  readonly seed?: number | bigint;
  /** The start instant in milliseconds since the Unix epoch (`sys.when`); default 2000-01-01T00:00:00Z. */
  readonly start?: number;
  /** The Host's application-state snapshot (`ui()`); absent: no `ui` global. */
  readonly ui?: JsonObject;
  /** Per-VM limits. */
  readonly limits?: RunLimits;
  /** The prepared run's tools, Packs and preludes (the Host builds it); absent: none. */
  readonly catalog?: RunCatalog;
  /** A cancel flag another thread can set (an Int32Array over a SharedArrayBuffer). */
  readonly cancelFlag?: Int32Array;
  /** The flag's index in `cancelFlag` (0). */
  readonly cancelFlagIndex?: number;
  /** An in-thread cancel check (a deadline), polled by every VM's count hook. */
  readonly shouldCancel?: () => boolean;
  /** Cancels every wait of the run when aborted. */
  readonly signal?: AbortSignal;
  /**
   * A stop flag another thread can set (an Int32Array over a SharedArrayBuffer; it may be the
   * cancel flag's array at another index). A non-zero value stops the run (docs/design/stop.md):
   * every VM's count hook polls it with `shouldStop` (every 16,000 instructions).
   */
  readonly stopFlag?: Int32Array;
  /** The flag's index in `stopFlag` (0). */
  readonly stopFlagIndex?: number;
  /** An in-thread stop check (a deadline), polled by every VM's count hook; true stops the run. */
  readonly shouldStop?: () => boolean;
  /**
   * Stops the run when aborted (not a cancel, docs/design/stop.md): nothing new starts, pending
   * tool calls are stopped unless their tool survives a stop (their answer is awaited), and the
   * run ends `cancelled` with `stopped: true`.
   */
  readonly stopSignal?: AbortSignal;
}

/** RunOptions with every default applied and every value checked. */
export interface ResolvedRunOptions {
  readonly effects: EffectPort;
  readonly args: string;
  readonly execution: string;
  readonly seed: bigint;
  /** The start instant (ms since the epoch). */
  readonly start: number;
  readonly ui: JsonObject | undefined;
  readonly catalog: RunCatalog;
  readonly logEvents: number | undefined;
  readonly luaMemoryBytes: number | undefined;
  readonly cancelFlag: Int32Array | undefined;
  readonly cancelFlagIndex: number;
  readonly shouldCancel: (() => boolean) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly stopFlag: Int32Array | undefined;
  readonly stopFlagIndex: number;
  readonly shouldStop: (() => boolean) | undefined;
  readonly stopSignal: AbortSignal | undefined;
}

/** The default start instant, 2000-01-01T00:00:00Z. */
export const DEFAULT_START_MS = 946684800000;

/** The default execution name. */
export const DEFAULT_EXECUTION = "run-1";

/**
 * Applies the defaults and checks the values; throws a TypeError or RangeError for options no
 * run can start with (a programming error of the caller, not a run failure).
 */
export function resolveRunOptions(options: RunOptions): ResolvedRunOptions {
  const execution = options.execution ?? DEFAULT_EXECUTION;
  if (execution === "" || /[\r\n]/.test(execution)) {
    throw new RangeError("the execution name must be one non-empty line");
  }
  const { limits = {} } = options;
  checkPositive(limits.luaMemoryBytes, "limits.luaMemoryBytes", 1);
  checkPositive(limits.logEvents, "limits.logEvents", 0);
  const stopFlagIndex = options.stopFlagIndex ?? 0;
  if (options.stopFlag !== undefined) checkStopFlag(options.stopFlag, stopFlagIndex);
  return {
    effects: options.effects,
    args: options.args ?? "",
    execution,
    seed: checkSeed(options.seed ?? 0),
    start: checkStart(options.start ?? DEFAULT_START_MS),
    ui: options.ui,
    catalog: options.catalog ?? { tools: [], packs: null, preludes: [], dropped: [], models: [] },
    logEvents: limits.logEvents,
    luaMemoryBytes: limits.luaMemoryBytes,
    cancelFlag: options.cancelFlag,
    cancelFlagIndex: options.cancelFlagIndex ?? 0,
    shouldCancel: options.shouldCancel,
    signal: options.signal,
    stopFlag: options.stopFlag,
    stopFlagIndex,
    shouldStop: options.shouldStop,
    stopSignal: options.stopSignal,
  };
}

/** The stop flag must be shared (another thread sets it) and hold its index. */
function checkStopFlag(flag: Int32Array, index: number): void {
  if (!(flag.buffer instanceof SharedArrayBuffer)) {
    throw new TypeError("stopFlag must be an Int32Array over a SharedArrayBuffer");
  }
  if (!Number.isSafeInteger(index) || index < 0 || index >= flag.length) {
    throw new RangeError(`stopFlagIndex ${index} is outside the stop flag array`);
  }
}

function checkPositive(value: number | undefined, name: string, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
    throw new RangeError(`${name} must be a whole number >= ${min}, got ${value}`);
  }
}

function checkStart(start: number): number {
  formatSysWhen(start); // throws a RangeError outside years 0000-9999
  return start;
}
