import type { JsonObject } from "@runvil/sdk";
import type { RunError } from "./run-error";

/** How a run ended. */
export type RunOutcome = "succeeded" | "failed" | "cancelled";

/** What every run result holds. */
interface RunResultBase {
  /** `var` as last read back on the root chain. */
  readonly var: JsonObject;
  /** How many events the run emitted (the last `seq`). */
  readonly events: number;
}

/** A run that ended normally. */
export interface SucceededRun extends RunResultBase {
  readonly outcome: "succeeded";
  /** The returned scalar as text, or null when the walk ended with no return. */
  readonly result: string | null;
}

/** A run that ended with a run error. */
export interface FailedRun extends RunResultBase {
  readonly outcome: "failed";
  readonly error: RunError;
}

/** A run that was cancelled, or stopped (docs/design/stop.md). */
export interface CancelledRun extends RunResultBase {
  readonly outcome: "cancelled";
  /**
   * Present (true) when the run ended because it was stopped (RunOptions.stopSignal, stopFlag,
   * shouldStop) rather than cancelled; absent for a cancel, also one that came during a stop.
   */
  readonly stopped?: true;
}

/** The run result (docs/design/outcomes.md). */
export type RunResult = SucceededRun | FailedRun | CancelledRun;
