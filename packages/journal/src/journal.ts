/** At most this many effects wait in a group commit. */
export const GROUP_COMMIT_EFFECTS = 64;

/**
 * A group commit is written once its texts reach this many characters (1 Mi), so a run of large
 * outputs is written as it goes rather than held in memory.
 */
export const GROUP_COMMIT_CHARS = 1 << 20;

/** A group commit is written at most this many milliseconds after its first effect. */
export const GROUP_COMMIT_MS = 5;

/**
 * Events wait at most this many milliseconds for an effect to be committed with; then they are
 * committed on their own (docs/design/journal.md "Writes and crashes"), so a long model round or
 * a long Lua block shows what the run did before it, and a kill loses at most this window.
 */
export const EVENT_COMMIT_MS = 200;

import type {
  EffectRecord,
  EventRecord,
  RecordedRun,
  RunEnding,
  RunInputs,
  RunSummary,
  StoreIntent,
} from "./records";

/** Options of {@link Journal.claimRun}. */
export interface ClaimRunOptions {
  /**
   * Take over a run recorded by a process on another host, which this host cannot ask whether
   * it still runs (`runvil resume --force`). A live process on this host is never taken over.
   */
  readonly force?: boolean;
}

/** A run claimed for a resume ({@link Journal.claimRun}). */
export interface RunClaim {
  /**
   * Gives the run back as it was (its previous owner), when this process still owns it and
   * wrote nothing into it: a resume that diverged before its first live effect leaves the
   * record exactly as it found it.
   */
  release(): Promise<void>;
}

/** Which runs a listing returns. */
export interface ListRunsOptions {
  /** At most this many, newest first (default: all). */
  readonly limit?: number;
}

/**
 * A run journal (docs/design/journal.md): one database of recorded runs. Every backend (SQLite,
 * PostgreSQL) passes the same contract suite (`describeJournalContract` in
 * `@runvil/journal/testing`).
 */
export interface Journal {
  /** Where the journal is, for messages: a file path, or a database URL without its password. */
  readonly location: string;
  /** Records a new run's inputs and returns its recorder. */
  startRun(inputs: RunInputs): Promise<RunRecorder>;
  /** The journal's runs, newest first. */
  listRuns(options?: ListRunsOptions): Promise<readonly RunSummary[]>;
  /**
   * The run with this id, or the only run whose id starts with it; undefined when there is
   * none. Throws a JournalError when a prefix names several runs.
   */
  findRun(idOrPrefix: string): Promise<RecordedRun | undefined>;
  /** The run's effects, in the order they were issued. */
  readEffects(runId: string): Promise<readonly EffectRecord[]>;
  /** The run's events, by `seq`. */
  readEvents(runId: string): Promise<readonly EventRecord[]>;
  /**
   * Reopens a run for a resume (docs/design/resume.md): the run must have no ending (it was
   * killed) or end `cancelled` (a cancel or a stop). In one transaction its ending is cleared,
   * its effects that failed for no recorded reason (the calls a cancel or stop aborted) are
   * removed, so they run again, its resume count goes up and the instant is kept, and this
   * process becomes its owner. The recorder writes into the same run. Throws a JournalError
   * (`no_such_run`, `ended`, `running` for a run another live process records) and changes
   * nothing for another run.
   */
  resumeRun(runId: string): Promise<RunRecorder>;
  /**
   * Claims a run for a resume by this process, before anything of it runs (docs/design/resume.md
   * "A run still recording"): in one transaction, refuses it as {@link resumeRun} would
   * (`no_such_run`, `ended`) and when the process that records it still runs (`running`: the
   * same host, its pid alive with the same start; or another host, unless `force`), else makes
   * this process its owner, so a second resume is refused. Nothing else of the record changes.
   */
  claimRun(runId: string, options?: ClaimRunOptions): Promise<RunClaim>;
  /** The run's store intents (write-ahead rows of a persistent store's changes). */
  readIntents(runId: string): Promise<readonly StoreIntent[]>;
  /** How many times the run was resumed (0 for a run never resumed). */
  resumeCount(runId: string): Promise<number>;
  /** Deletes the runs that started before `startedBefore` (ms since the epoch); how many. */
  pruneRuns(startedBefore: number): Promise<number>;
  /** Closes the journal (pending writes are finished first). */
  close(): Promise<void>;
}

/**
 * Writes one run. Events are buffered and written with the next written effect (or the ending)
 * in one transaction, or on their own once they waited {@link EVENT_COMMIT_MS}, so after a crash
 * the journal holds a prefix of the run: its effects and events in the order they came, up to
 * the last commit.
 */
export interface RunRecorder {
  /** The new run's id. */
  readonly runId: string;
  /**
   * Buffers one event (written with the next effect or the ending, or on its own at most
   * {@link EVENT_COMMIT_MS} later). Never throws: a failed write is thrown by the next write.
   */
  recordEvent(event: EventRecord): void;
  /**
   * Records one settled effect. `durable` (default true): the effect, every effect recorded
   * before it and the buffered events are written now, in one transaction; the result is
   * undefined when that write is already done (SQLite writes synchronously), else a promise that
   * settles when it is. Not durable: the effect may wait in a batch (group commit, at most
   * {@link GROUP_COMMIT_EFFECTS} effects or {@link GROUP_COMMIT_MS} ms); a failure of that later
   * write is thrown by the next durable write or the ending.
   */
  recordEffect(effect: EffectRecord, durable?: boolean): Promise<void> | undefined;
  /**
   * Records a store intent durably, with every effect recorded before it: the result is
   * undefined when the write is done, else a promise that settles when it is.
   */
  recordIntent(intent: StoreIntent): Promise<void> | undefined;
  /**
   * Removes the run's written events from `seq` on (a resumed run that left the recorded
   * events there: the tail a stop or a cancel wrote). Buffered events are not touched.
   */
  dropEventsFrom(seq: number): Promise<void> | undefined;
  /** Writes the buffered events and the run's ending, in one transaction. */
  finish(ending: RunEnding): Promise<void>;
}
