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
  /**
   * What the rounds cost in US dollars, an exact decimal text such as `"0.004515"` (never an
   * exponent, no trailing zeros; `"0"` for no rounds), priced from each round's catalog model
   * (docs/design/cost.md). Null when any of the rounds ran on a model without prices: the cost
   * is unknown, never 0.
   */
  readonly costUsd: string | null;
  /** How many of the rounds ran on a model without prices (`costUsd` is null when any did). */
  readonly unpricedRounds: number;
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
  /** The entry's sums over every model. */
  readonly total: TokenUsage;
  /** Sums by catalog model id. */
  readonly byModel: Readonly<Record<string, TokenUsage>>;
}

/**
 * A run's model usage and cost: the total, the sums by catalog model id, by section name (every
 * entry of a section, what a section budget counts), by task id (`sys.taskid`), and each
 * section entry's own, sorted by entry id. Sums commute, so the usage is the same however
 * concurrent chains interleave. Record keys are sorted.
 */
export interface RunUsage {
  readonly total: TokenUsage;
  readonly byModel: Readonly<Record<string, TokenUsage>>;
  readonly bySection: Readonly<Record<string, TokenUsage>>;
  readonly byTask: Readonly<Record<string, TokenUsage>>;
  readonly sections: readonly SectionUsage[];
}

/**
 * The usage of a run that made no model round: every count 0, cost `"0"`, no models, sections
 * or tasks (frozen). A refused prepare reports it, and tests compare a run without rounds with it.
 */
export const NO_RUN_USAGE: RunUsage = Object.freeze({
  total: Object.freeze({
    rounds: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    costUsd: "0",
    unpricedRounds: 0,
  }),
  byModel: Object.freeze({}),
  bySection: Object.freeze({}),
  byTask: Object.freeze({}),
  sections: Object.freeze([]),
});

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
