import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import type { EffectOrigin } from "@runvil/protocol";
import type BetterSqlite3 from "better-sqlite3";
import { encodeValue } from "../codec";
import {
  type ClaimRunOptions,
  EVENT_COMMIT_MS,
  GROUP_COMMIT_CHARS,
  GROUP_COMMIT_EFFECTS,
  GROUP_COMMIT_MS,
  type Journal,
  type ListRunsOptions,
  type RunClaim,
  type RunRecorder,
} from "../journal";
import { JournalError } from "../journal-error";
import { promptHash } from "../prompt-hash";
import type {
  EffectRecord,
  EventRecord,
  RecordedRun,
  RunEnding,
  RunInputs,
  RunSummary,
  StoreIntent,
} from "../records";
import { checkResumable, noSuchRun, type ResumableRow } from "../resume-errors";
import { isRunIdText, newRunId } from "../run-id";
import { currentOwner, ownerText } from "../run-owner";
import {
  type FullRunRow,
  failureOf,
  INPUT_COLUMNS,
  type LiveCounts,
  type RunRow,
  recordedRunOf,
  SUMMARY_COLUMNS,
  summaryOf,
} from "../summary-rows";
import { TOOL_CALL_EVENT } from "../tool-call-counts";
import { appendEffect, appendEvent, readEffectBatch, readEventBatch } from "./batch-text";
import { JOURNAL_APPLICATION_ID, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION } from "./schema";
import { sqliteFailure } from "./sqlite-failure";

/** Options of {@link openSqliteJournal}. */
export interface SqliteJournalOptions {
  /**
   * How long a write waits for another process's transaction to end before it fails `locked`
   * (default 5,000 ms). Runs writing one journal take turns per effect, each turn a few
   * microseconds, so they wait for each other only that long.
   */
  readonly busyTimeoutMs?: number;
  /**
   * Caps the file at this many pages (`PRAGMA max_page_count`): writes past it fail `full`,
   * like a full disk. For tests; absent: no cap.
   */
  readonly maxPageCount?: number;
}

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

let loaded: typeof BetterSqlite3 | undefined;

/** better-sqlite3, loaded at the first open (a run that records nothing never loads it). */
function betterSqlite3(): typeof BetterSqlite3 {
  loaded ??= createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  return loaded;
}

interface EffectRow {
  readonly effect: string;
  readonly kind: string;
  readonly origin: string;
  readonly request: string;
  readonly issued: number;
  readonly arrival: number;
  readonly started_us: number;
  readonly duration_us: number;
  readonly events_before: number;
  readonly output: string | null;
  readonly failure: string | null;
}

/** Checks the file is a Runvil journal of a version this Runvil reads; changes nothing. */
function checkJournal(db: Database, location: string): void {
  const version = Number(db.pragma("user_version", { simple: true }));
  const application = Number(db.pragma("application_id", { simple: true }));
  if (version > SQLITE_SCHEMA_VERSION) {
    throw new JournalError(
      "newer_schema",
      location,
      `the journal has schema version ${version}, and this Runvil reads up to version ${SQLITE_SCHEMA_VERSION}; upgrade Runvil to read it (it was left unchanged)`,
    );
  }
  if (application !== JOURNAL_APPLICATION_ID) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
    if (application !== 0 || tables.n > 0) {
      throw new JournalError(
        "corrupt",
        location,
        "the file is an SQLite database but not a Runvil journal (it was left unchanged); name another file with --journal FILE",
      );
    }
  }
}

/** Brings the journal's schema to this version (each migration in one transaction). */
function migrate(db: Database): void {
  if (Number(db.pragma("user_version", { simple: true })) === SQLITE_SCHEMA_VERSION) return;
  db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    let current = Number(db.pragma("user_version", { simple: true }));
    for (; current < SQLITE_SCHEMA_VERSION; current += 1) {
      db.exec(SQLITE_MIGRATIONS[current] as string);
    }
    db.pragma(`application_id = ${JOURNAL_APPLICATION_ID}`);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}

/** What one group commit holds: its effects' and events' texts (batch-text.ts) and counts. */
interface Batch {
  effectText: string;
  eventText: string;
  effects: number;
  modelRounds: number;
  toolCalls: number;
  events: number;
  /** The first and the last effect id, for messages. */
  first: string;
  last: string;
  /** The last effect's origin (the next one with the same is written as absent). */
  origin: EffectOrigin | undefined;
  /** When its first event was buffered (`performance.now()`), for the event window. */
  eventsSince: number;
}

function emptyBatch(): Batch {
  return {
    effectText: "",
    eventText: "",
    effects: 0,
    modelRounds: 0,
    toolCalls: 0,
    events: 0,
    first: "",
    last: "",
    origin: undefined,
    eventsSince: 0,
  };
}

class SqliteRecorder implements RunRecorder {
  readonly runId: string;
  readonly #journal: SqliteJournal;
  #batch: Batch = emptyBatch();
  /** The group commit's timer (store effects: {@link GROUP_COMMIT_MS}). */
  #timer: NodeJS.Timeout | undefined;
  /** The event window's timer ({@link EVENT_COMMIT_MS}): events waiting for no effect. */
  #eventTimer: NodeJS.Timeout | undefined;
  /** A failure of a batch written by a timer or by recordEvent, thrown by the next write. */
  #failed: unknown;

  constructor(journal: SqliteJournal, runId: string) {
    this.#journal = journal;
    this.runId = runId;
  }

  recordEvent(event: EventRecord): void {
    const batch = this.#batch;
    batch.eventText = appendEvent(batch.eventText, event);
    batch.events += 1;
    if (event.type === TOOL_CALL_EVENT) batch.toolCalls += 1;
    if (batch.events === 1) {
      batch.eventsSince = performance.now();
      // One timer per window at most, however many batches it sees (a commit clears none).
      if (this.#eventTimer === undefined) {
        this.#eventTimer = setTimeout(this.#onEventTimer, EVENT_COMMIT_MS);
        this.#eventTimer.unref();
      }
    } else if (performance.now() - batch.eventsSince >= EVENT_COMMIT_MS) {
      // A long Lua block holds the thread, so no timer fires: commit from here.
      this.#flushQuietly();
    }
  }

  readonly #onEventTimer = (): void => {
    this.#eventTimer = undefined;
    if (this.#batch.events > 0) this.#flushQuietly();
  };

  /** Writes the batch; a failure is kept and thrown by the next write. */
  #flushQuietly(): void {
    if (this.#failed !== undefined) return;
    try {
      this.#flush();
    } catch (error) {
      this.#failed = error;
    }
  }

  /** Writes the batch: the buffered events and effects, in one statement. */
  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#failed !== undefined) throw this.#failed;
    const batch = this.#batch;
    if (batch.effects === 0 && batch.events === 0) return;
    this.#batch = emptyBatch();
    this.#journal.writeBatch(this.runId, batch);
  }

  recordEffect(effect: EffectRecord, durable = true): undefined {
    if (this.#failed !== undefined) throw this.#failed;
    const batch = this.#batch;
    batch.effectText = appendEffect(batch.effectText, effect, batch.origin);
    batch.origin = effect.origin;
    batch.effects += 1;
    if (effect.kind === "model") batch.modelRounds += 1;
    if (batch.effects === 1) batch.first = effect.effect;
    batch.last = effect.effect;
    if (
      durable ||
      batch.effects >= GROUP_COMMIT_EFFECTS ||
      batch.effectText.length + batch.eventText.length >= GROUP_COMMIT_CHARS
    ) {
      this.#flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#flushQuietly();
      }, GROUP_COMMIT_MS);
      this.#timer.unref();
    }
    return undefined;
  }

  recordIntent(intent: StoreIntent): undefined {
    // With the batch (every result the run saw before the change), in one transaction.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#failed !== undefined) throw this.#failed;
    const batch = this.#batch;
    this.#batch = emptyBatch();
    this.#journal.writeIntent(this.runId, batch, intent);
    return undefined;
  }

  dropEventsFrom(seq: number): undefined {
    if (this.#failed !== undefined) throw this.#failed;
    this.#journal.dropEvents(this.runId, seq);
    return undefined;
  }

  async finish(ending: RunEnding): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#eventTimer !== undefined) clearTimeout(this.#eventTimer);
    this.#timer = undefined;
    this.#eventTimer = undefined;
    if (this.#failed !== undefined) throw this.#failed;
    // The last batch and the ending in one transaction.
    const batch = this.#batch;
    this.#batch = emptyBatch();
    this.#journal.writeEnding(this.runId, batch, ending);
  }
}

/** The SQLite journal (docs/design/journal.md). */
class SqliteJournal implements Journal {
  readonly location: string;
  readonly #db: Database;
  readonly #writeBatch: (runId: string, batch: Batch) => void;
  readonly #writeEnding: (runId: string, batch: Batch, ending: RunEnding) => void;

  constructor(location: string, db: Database) {
    this.location = location;
    this.#db = db;
    const insertBatch = db.prepare(
      `INSERT INTO batches (run_id, effects, model_rounds, tool_calls, events, effect_text, event_text)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const endRun = db.prepare(
      `UPDATE runs SET ended_at = ?, outcome = ?, error_kind = ?, result = ?, effects = ?, model_rounds = ?,
       tool_calls = ?, input_tokens = ?, output_tokens = ?, events = ?, owner = NULL WHERE id = ?`,
    );
    const write = (runId: string, batch: Batch): void => {
      insertBatch.run(
        runId,
        batch.effects,
        batch.modelRounds,
        batch.toolCalls,
        batch.events,
        batch.effectText,
        batch.eventText,
      );
    };
    // One statement is atomic on its own: a batch needs no explicit transaction.
    this.#writeBatch = write;
    this.#writeEnding = db.transaction((runId: string, batch: Batch, ending: RunEnding) => {
      if (batch.effects > 0 || batch.events > 0) write(runId, batch);
      const counts = ending.counts;
      endRun.run(
        ending.endedAt,
        ending.outcome,
        ending.errorKind ?? null,
        ending.result,
        counts.effects,
        counts.modelRounds,
        counts.toolCalls,
        counts.inputTokens,
        counts.outputTokens,
        counts.events,
        runId,
      );
    });
  }

  #guard<T>(doing: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw sqliteFailure(this.location, doing, error);
    }
  }

  writeBatch(runId: string, batch: Batch): void {
    const named =
      batch.effects === 0
        ? "the events"
        : batch.first === batch.last
          ? `effect ${batch.first}`
          : `effects ${batch.first} to ${batch.last}`;
    this.#guard(`cannot record ${named} of run ${runId}`, () => this.#writeBatch(runId, batch));
  }

  writeEnding(runId: string, batch: Batch, ending: RunEnding): void {
    this.#guard(`cannot record the end of run ${runId}`, () =>
      this.#writeEnding(runId, batch, ending),
    );
  }

  #insertIntent: Statement | undefined;
  #writeIntent: ((runId: string, batch: Batch, intent: StoreIntent) => void) | undefined;

  writeIntent(runId: string, batch: Batch, intent: StoreIntent): void {
    this.#guard(`cannot record the store intent of effect ${intent.effect} of run ${runId}`, () => {
      this.#insertIntent ??= this.#db.prepare(
        "INSERT OR REPLACE INTO store_intents (run_id, effect, path, before) VALUES (?, ?, ?, ?)",
      );
      const insertIntent = this.#insertIntent;
      this.#writeIntent ??= this.#db.transaction((id: string, pending: Batch, row: StoreIntent) => {
        // The batch and the intent commit together.
        if (pending.effects > 0 || pending.events > 0) this.#writeBatch(id, pending);
        insertIntent.run(id, row.effect, row.path, row.before);
      });
      this.#writeIntent(runId, batch, intent);
    });
  }

  /**
   * Rewrites the run's batches keeping only the effects and events `keep` accepts (a resume:
   * the calls a stop aborted, the events of the tail it wrote); rows of a run recorded before
   * schema version 3 are deleted instead. Call inside a transaction.
   */
  #rewrite(
    runId: string,
    keepEffect: (effect: EffectRecord) => boolean,
    keepEvent: (event: EventRecord) => boolean,
  ): void {
    const rows = this.#db
      .prepare(
        "SELECT id, effect_text, event_text FROM batches WHERE run_id = ? AND (effects > 0 OR events > 0) ORDER BY id",
      )
      .all(runId) as { id: number; effect_text: string; event_text: string }[];
    const update = this.#db.prepare(
      "UPDATE batches SET effects = ?, model_rounds = ?, tool_calls = ?, events = ?, effect_text = ?, event_text = ? WHERE id = ?",
    );
    for (const row of rows) {
      const effects = this.#readBatch(runId, row.effect_text, readEffectBatch);
      const events = this.#readBatch(runId, row.event_text, readEventBatch);
      const keptEffects = effects.filter(keepEffect);
      const keptEvents = events.filter(keepEvent);
      if (keptEffects.length === effects.length && keptEvents.length === events.length) continue;
      const batch = emptyBatch();
      for (const effect of keptEffects) {
        batch.effectText = appendEffect(batch.effectText, effect, batch.origin);
        batch.origin = effect.origin;
        batch.effects += 1;
        if (effect.kind === "model") batch.modelRounds += 1;
      }
      for (const event of keptEvents) {
        batch.eventText = appendEvent(batch.eventText, event);
        if (event.type === TOOL_CALL_EVENT) batch.toolCalls += 1;
      }
      update.run(
        batch.effects,
        batch.modelRounds,
        batch.toolCalls,
        keptEvents.length,
        batch.effectText,
        batch.eventText,
        row.id,
      );
    }
  }

  dropEvents(runId: string, fromSeq: number): void {
    this.#guard(`cannot rewrite the events of run ${runId}`, () =>
      this.#db.transaction(() => {
        this.#db.prepare("DELETE FROM events WHERE run_id = ? AND seq >= ?").run(runId, fromSeq);
        this.#rewrite(
          runId,
          () => true,
          (event) => event.seq < fromSeq,
        );
      })(),
    );
  }

  #resumableRow(runId: string): ResumableRow | undefined {
    return this.#db.prepare("SELECT outcome, ended_at, owner FROM runs WHERE id = ?").get(runId) as
      | ResumableRow
      | undefined;
  }

  async claimRun(runId: string, options: ClaimRunOptions = {}): Promise<RunClaim> {
    const mine = ownerText(currentOwner());
    const previous = this.#guard(`cannot claim run ${runId}`, () =>
      this.#db
        .transaction(() => {
          const row = this.#resumableRow(runId);
          checkResumable(this.location, runId, row, options.force);
          this.#db.prepare("UPDATE runs SET owner = ? WHERE id = ?").run(mine, runId);
          return row?.owner ?? null;
        })
        .immediate(),
    );
    return {
      release: async () => {
        this.#guard(`cannot release run ${runId}`, () =>
          this.#db
            .prepare("UPDATE runs SET owner = ? WHERE id = ? AND owner = ?")
            .run(previous, runId, mine),
        );
      },
    };
  }

  async resumeRun(runId: string): Promise<RunRecorder> {
    this.#guard(`cannot reopen run ${runId}`, () =>
      this.#db
        .transaction(() => {
          // A claim of this process (claimRun) is its own: only another live owner refuses.
          checkResumable(this.location, runId, this.#resumableRow(runId), true);
          // The calls a cancel or a stop aborted (no recorded reason) run again.
          this.#db
            .prepare(
              "DELETE FROM effects WHERE run_id = ? AND failure IS NOT NULL AND json_extract(failure, '$.type') = 'error'",
            )
            .run(runId);
          this.#rewrite(
            runId,
            (effect) => effect.failure?.type !== "error",
            () => true,
          );
          this.#db
            .prepare(
              "UPDATE runs SET ended_at = NULL, outcome = NULL, error_kind = NULL, result = NULL, resumes = resumes + 1, owner = ? WHERE id = ?",
            )
            .run(ownerText(currentOwner()), runId);
          this.#db
            .prepare(
              "INSERT INTO resumes (run_id, n, resumed_at) SELECT id, resumes, ? FROM runs WHERE id = ?",
            )
            .run(Date.now(), runId);
        })
        .immediate(),
    );
    return new SqliteRecorder(this, runId);
  }

  async readIntents(runId: string): Promise<readonly StoreIntent[]> {
    return this.#guard(
      `cannot read the store intents of run ${runId}`,
      () =>
        this.#db
          .prepare("SELECT effect, path, before FROM store_intents WHERE run_id = ? ORDER BY rowid")
          .all(runId) as StoreIntent[],
    );
  }

  async resumeCount(runId: string): Promise<number> {
    return this.#guard(`cannot read run ${runId}`, () => {
      const row = this.#db.prepare("SELECT resumes FROM runs WHERE id = ?").get(runId) as
        | { resumes: number }
        | undefined;
      if (row === undefined) throw noSuchRun(this.location, runId);
      return row.resumes;
    });
  }

  async startRun(inputs: RunInputs): Promise<RunRecorder> {
    const runId = newRunId(inputs.startedAt);
    this.#guard("cannot record a new run", () =>
      this.#db
        .prepare(
          `INSERT INTO runs (id, prompt_path, prompt_hash, prompt, args, seed, started_at, host, bindings, versions, owner)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          runId,
          inputs.promptPath,
          promptHash(inputs.promptBytes),
          Buffer.from(
            inputs.promptBytes.buffer,
            inputs.promptBytes.byteOffset,
            inputs.promptBytes.byteLength,
          ),
          inputs.args,
          inputs.seed,
          inputs.startedAt,
          encodeValue(inputs.host),
          encodeValue(inputs.bindings),
          encodeValue(inputs.versions),
          ownerText(currentOwner()),
        ),
    );
    return new SqliteRecorder(this, runId);
  }

  #liveCounts(row: RunRow): LiveCounts | undefined {
    if (row.outcome !== null) return undefined;
    // A run recorded before schema version 3 has rows in effects and events; a later one, batches.
    const kinds = this.#db
      .prepare("SELECT kind, count(*) AS n FROM effects WHERE run_id = ? GROUP BY kind")
      .all(row.id) as { kind: string; n: number }[];
    const events = this.#db
      .prepare("SELECT count(*) AS n FROM events WHERE run_id = ?")
      .get(row.id) as { n: number };
    const batches = this.#db
      .prepare(
        `SELECT coalesce(sum(effects), 0) AS effects, coalesce(sum(model_rounds), 0) AS model_rounds,
         coalesce(sum(tool_calls), 0) AS tool_calls, coalesce(sum(events), 0) AS events
         FROM batches WHERE run_id = ?`,
      )
      .get(row.id) as { effects: number; model_rounds: number; tool_calls: number; events: number };
    const count = (kind: string): number => kinds.find((k) => k.kind === kind)?.n ?? 0;
    return {
      effects: kinds.reduce((sum, k) => sum + k.n, 0) + batches.effects,
      modelRounds: count("model") + batches.model_rounds,
      toolCalls: count("tool") + batches.tool_calls,
      events: events.n + batches.events,
    };
  }

  async listRuns(options: ListRunsOptions = {}): Promise<readonly RunSummary[]> {
    return this.#guard("cannot list the runs", () => {
      const limit = options.limit ?? -1;
      const rows = this.#db
        .prepare(`SELECT ${SUMMARY_COLUMNS} FROM runs ORDER BY started_at DESC, id DESC LIMIT ?`)
        .all(limit) as RunRow[];
      return rows.map((row) => summaryOf(row, this.#liveCounts(row)));
    });
  }

  async findRun(idOrPrefix: string): Promise<RecordedRun | undefined> {
    if (!isRunIdText(idOrPrefix)) return undefined;
    return this.#guard(`cannot read run ${idOrPrefix}`, () => {
      const columns = `${SUMMARY_COLUMNS}, ${INPUT_COLUMNS}`;
      let row = this.#db.prepare(`SELECT ${columns} FROM runs WHERE id = ?`).get(idOrPrefix) as
        | FullRunRow
        | undefined;
      if (row === undefined) {
        const rows = this.#db
          .prepare(`SELECT ${columns} FROM runs WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 2`)
          .all(idOrPrefix.length, idOrPrefix) as FullRunRow[];
        if (rows.length > 1) {
          throw new JournalError(
            "ambiguous_id",
            this.location,
            `${idOrPrefix} names several runs (${rows.map((r) => r.id).join(", ")}, …); give more of the id`,
          );
        }
        row = rows[0];
      }
      if (row === undefined) return undefined;
      const resumedAt = this.#db
        .prepare("SELECT resumed_at FROM resumes WHERE run_id = ? ORDER BY n")
        .pluck()
        .all(row.id) as number[];
      return recordedRunOf(row, resumedAt, this.#liveCounts(row));
    });
  }

  /** The texts of a run's batches, in the order they were written. */
  #batchTexts(runId: string, column: "effect_text" | "event_text"): string[] {
    const empty = column === "effect_text" ? "effects > 0" : "events > 0";
    return this.#db
      .prepare(`SELECT ${column} FROM batches WHERE run_id = ? AND ${empty} ORDER BY id`)
      .pluck()
      .all(runId) as string[];
  }

  /** Reads a batch's text, a damaged one failing `corrupt` with the run and what to do. */
  #readBatch<T>(runId: string, text: string, read: (text: string) => T[]): T[] {
    try {
      return read(text);
    } catch (error) {
      throw new JournalError(
        "corrupt",
        this.location,
        `the records of run ${runId} are damaged (${error instanceof Error ? error.message : String(error)}); restore the journal from a copy (its other runs read as before)`,
        { cause: error },
      );
    }
  }

  async readEffects(runId: string): Promise<readonly EffectRecord[]> {
    const texts = this.#guard(`cannot read the effects of run ${runId}`, () => {
      const rows = this.#db
        .prepare(
          "SELECT effect, kind, origin, request, issued, arrival, started_us, duration_us, events_before, output, failure FROM effects WHERE run_id = ? ORDER BY issued",
        )
        .all(runId) as EffectRow[];
      return { rows, batches: this.#batchTexts(runId, "effect_text") };
    });
    const effects = texts.rows.map(effectOf);
    for (const text of texts.batches)
      for (const effect of this.#readBatch(runId, text, readEffectBatch)) effects.push(effect);
    // Batches hold effects in arrival order; a reader gets them in issue order.
    if (texts.batches.length > 0) effects.sort((a, b) => a.issued - b.issued);
    return effects;
  }

  async readEvents(runId: string): Promise<readonly EventRecord[]> {
    const texts = this.#guard(`cannot read the events of run ${runId}`, () => ({
      rows: this.#db
        .prepare("SELECT seq, type, chain, line FROM events WHERE run_id = ? ORDER BY seq")
        .all(runId) as EventRecord[],
      batches: this.#batchTexts(runId, "event_text"),
    }));
    const events = texts.rows;
    for (const text of texts.batches)
      for (const event of this.#readBatch(runId, text, readEventBatch)) events.push(event);
    if (texts.batches.length > 0) events.sort((a, b) => a.seq - b.seq);
    return events;
  }

  async pruneRuns(startedBefore: number): Promise<number> {
    return this.#guard("cannot prune the runs", () =>
      this.#db.transaction(() => {
        const old = "SELECT id FROM runs WHERE started_at < ?";
        this.#db.prepare(`DELETE FROM events WHERE run_id IN (${old})`).run(startedBefore);
        this.#db.prepare(`DELETE FROM effects WHERE run_id IN (${old})`).run(startedBefore);
        this.#db.prepare(`DELETE FROM batches WHERE run_id IN (${old})`).run(startedBefore);
        this.#db.prepare(`DELETE FROM store_intents WHERE run_id IN (${old})`).run(startedBefore);
        this.#db.prepare(`DELETE FROM resumes WHERE run_id IN (${old})`).run(startedBefore);
        return this.#db.prepare("DELETE FROM runs WHERE started_at < ?").run(startedBefore).changes;
      })(),
    );
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

function effectOf(row: EffectRow): EffectRecord {
  const failure = failureOf(row.failure);
  return {
    effect: row.effect,
    kind: row.kind as EffectRecord["kind"],
    origin: JSON.parse(row.origin) as EffectRecord["origin"],
    request: row.request,
    issued: row.issued,
    arrival: row.arrival,
    startedUs: row.started_us,
    durationUs: row.duration_us,
    eventsBefore: row.events_before,
    ...(row.output === null ? {} : { output: row.output }),
    ...(failure === undefined ? {} : { failure }),
  };
}

/**
 * Opens (creating when absent) the SQLite journal at `file`: WAL mode, `synchronous = NORMAL`
 * (a process crash loses nothing committed), the schema migrated to this version. Throws a
 * JournalError naming the file for a corrupt or foreign file, a newer schema, a lock held too
 * long, a full disk.
 */
export function openSqliteJournal(file: string, options: SqliteJournalOptions = {}): Journal {
  const Sqlite = betterSqlite3();
  let db: Database | undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
    db = new Sqlite(file, { timeout: options.busyTimeoutMs ?? 5000 });
    if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${options.maxPageCount}`);
    // Check before anything writes: a foreign or newer file is left exactly as it was.
    checkJournal(db, file);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    // Index pages of a growing journal stay in memory (the default cache is 2 MiB).
    db.pragma("cache_size = -32768");
    // Checkpoints (each with an fsync) every 64 MiB of WAL rather than every 4 MiB.
    db.pragma("wal_autocheckpoint = 16384");
    migrate(db);
    return new SqliteJournal(file, db);
  } catch (error) {
    db?.close();
    throw sqliteFailure(file, "cannot open the journal", error);
  }
}
