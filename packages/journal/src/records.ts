import type { EffectOrigin, RunOutcome } from "@runvil/protocol";

/** What kind of effect a record holds: a store operation, a catalog tool call, a model round. */
export type EffectKind = "store" | "tool" | "model";

/** The effect kinds, in the order the port lists them. */
export const EFFECT_KINDS: readonly EffectKind[] = ["store", "tool", "model"];

/**
 * A run's inputs: everything besides the effects' answers that decides what it does
 * (docs/design/determinism.md), so a replay can run it again.
 */
export interface RunInputs {
  /** The prompt file as the run named it. */
  readonly promptPath: string;
  /** The prompt file's text (the bytes, decoded as UTF-8 with replacement only for display). */
  readonly promptBytes: Uint8Array;
  /** The argument string. */
  readonly args: string;
  /** The run seed (decimal text of a 64-bit unsigned integer). */
  readonly seed: string;
  /** The start instant, milliseconds since the epoch. */
  readonly startedAt: number;
  /**
   * The Host snapshot: the run's catalog as prepared (tools, Packs, preludes, model roles), the
   * configuration file, anything else a replay needs; encoded with the journal's codec.
   */
  readonly host: unknown;
  /** The model role bindings (role -> catalog model id). */
  readonly bindings: Readonly<Record<string, string>>;
  /** The versions of the packages that ran it (package name -> version). */
  readonly versions: Readonly<Record<string, string>>;
}

/** A recorded failure: what the port rejected with, enough to reject the same way on replay. */
export type RecordedFailure =
  | {
      readonly type: "store";
      readonly reason: string;
      readonly path: string;
      readonly message: string;
      readonly count?: number;
      readonly validUpTo?: number;
    }
  | { readonly type: "tool"; readonly message: string }
  | {
      readonly type: "model";
      readonly kind: string;
      readonly message: string;
      readonly fields: Readonly<Record<string, string | number | boolean>>;
    }
  /** Anything else (an outside failure, an abort): its name and message. */
  | { readonly type: "error"; readonly name: string; readonly message: string };

/** One effect as the journal keeps it. */
export interface EffectRecord {
  /** The replay-stable effect id (`{entry}/{n}`). */
  readonly effect: string;
  readonly kind: EffectKind;
  readonly origin: EffectOrigin;
  /** The request as the journal's codec encodes it (signals left out). */
  readonly request: string;
  /** 1, 2, 3, … in the order the run issued its effects. */
  readonly issued: number;
  /** 1, 2, 3, … in the order the results arrived. */
  readonly arrival: number;
  /**
   * How many events the run had emitted when the result arrived: a replay hands the result
   * over at the same point of the run, so concurrent chains interleave as they did.
   */
  readonly eventsBefore: number;
  /** Microseconds from the run's start to the request. */
  readonly startedUs: number;
  /** Microseconds from the request to its answer. */
  readonly durationUs: number;
  /** The output, encoded (when the effect succeeded). */
  readonly output?: string;
  /** The failure (when it failed). */
  readonly failure?: RecordedFailure;
}

/** One recorded event: its `seq`, type, chain and JSON Lines line (`formatEventLine`). */
export interface EventRecord {
  readonly seq: number;
  readonly type: string;
  readonly chain: string;
  readonly line: string;
}

/** Counts the journal keeps per run for listings. */
export interface RunCounts {
  readonly effects: number;
  readonly modelRounds: number;
  readonly toolCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly events: number;
}

/** How a recorded run ended. */
export interface RunEnding {
  /** The outcome; `"interrupted"` is never written: it is a run with no ending. */
  readonly outcome: RunOutcome;
  /** The end instant, milliseconds since the epoch. */
  readonly endedAt: number;
  /** The run result (or report) as the journal's codec encodes it. */
  readonly result: string;
  /** The run error's kind, for failed runs. */
  readonly errorKind?: string;
  /** The run's counts. */
  readonly counts: RunCounts;
}

/**
 * The process recording a run (docs/design/resume.md "A run still recording"): set when the run
 * starts or is resumed, cleared with its ending.
 */
export interface RunOwner {
  readonly pid: number;
  /** The host name (`os.hostname()`). */
  readonly host: string;
  /**
   * The process's start, so a reused pid is not taken for it: `linux:{boot id}:{start ticks}`
   * where `/proc` says, else `ms:{start instant}`.
   */
  readonly started: string;
}

/** A run as `runvil runs list` shows it. */
export interface RunSummary extends RunCounts {
  readonly id: string;
  readonly promptPath: string;
  readonly promptHash: string;
  readonly startedAt: number;
  /** Absent while the run has no ending (it runs, or it crashed). */
  readonly endedAt?: number;
  /** `running` when the run has no ending yet (or was killed before it had one). */
  readonly outcome: RunOutcome | "running";
  readonly errorKind?: string;
  /** How many times the run was resumed (`runvil resume`); 0 for a run never resumed. */
  readonly resumes: number;
}

/** Everything recorded about one run except its effects and events. */
export interface RecordedRun extends RunSummary {
  readonly inputs: RunInputs;
  /** The encoded result, when the run ended. */
  readonly result?: string;
  /**
   * When each resume reopened the run (ms since the epoch), oldest first; a resume recorded
   * before the instants were kept (schema 4) has none, so this may be shorter than `resumes`.
   */
  readonly resumedAt: readonly number[];
  /** The process recording the run; absent once it ended (or for a run recorded before). */
  readonly owner?: RunOwner;
}

/**
 * A write-ahead row of a change to a persistent store (docs/design/resume.md): written, durably,
 * before the change is applied, with what the file looked like before it. A resume that finds
 * an intent without its effect's result tells from the file whether the change was applied.
 */
export interface StoreIntent {
  /** The store effect's id. */
  readonly effect: string;
  /** The store path the change touches. */
  readonly path: string;
  /** The file's fingerprint before the change (the caller's text; "absent" for no file). */
  readonly before: string;
}
