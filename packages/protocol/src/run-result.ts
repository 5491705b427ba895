import type { JsonObject } from "@runvil/sdk";
import type { RunError } from "./run-error";

/** How a run ended. */
export type RunOutcome = "succeeded" | "failed" | "cancelled";

/** Token sums of model rounds (docs/design/loop.md §10). */
export interface TokenUsage {
  /** Completed model rounds. */
  readonly rounds: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from a prompt cache (also counted in `inputTokens`). */
  readonly cachedInputTokens: number;
  /** Output tokens spent on reasoning (also counted in `outputTokens`). */
  readonly reasoningTokens: number;
}

/** The usage of one section entry that ran model rounds. */
export interface SectionUsage {
  /** The entry id (`sys.id`). */
  readonly entry: string;
  /** The section name (the title for the H1 pass). */
  readonly section: string;
  /** The chain id. */
  readonly chain: string;
  /** The task id (`sys.taskid`). */
  readonly task: string;
  /** Sums by catalog model id. */
  readonly byModel: Readonly<Record<string, TokenUsage>>;
}

/**
 * A run's model usage: the total, the sums by catalog model id (what a price list applies to),
 * and each section entry's own, sorted by entry id. Sums commute, so the usage is the same
 * however concurrent chains interleave.
 */
export interface RunUsage {
  readonly total: TokenUsage;
  readonly byModel: Readonly<Record<string, TokenUsage>>;
  readonly sections: readonly SectionUsage[];
}

/** What every run result holds. */
interface RunResultBase {
  /** `var` as last read back on the root chain. */
  readonly var: JsonObject;
  /** How many events the run emitted (the last `seq`). */
  readonly events: number;
  /** The tokens the run's model rounds used (zero rounds when it made none). */
  readonly usage: RunUsage;
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
