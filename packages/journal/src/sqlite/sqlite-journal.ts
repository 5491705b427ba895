import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { encodeValue } from "../codec";
import {
  GROUP_COMMIT_EFFECTS,
  GROUP_COMMIT_MS,
  type Journal,
  type ListRunsOptions,
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
} from "../records";
import { isRunIdText, newRunId } from "../run-id";
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

class SqliteRecorder implements RunRecorder {
  readonly runId: string;
  readonly #journal: SqliteJournal;
  #events: EventRecord[] = [];
  #effects: EffectRecord[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** A failure of a batch written by the timer, thrown by the next write. */
  #failed: unknown;

  constructor(journal: SqliteJournal, runId: string) {
    this.#journal = journal;
    this.runId = runId;
  }

  recordEvent(event: EventRecord): void {
    this.#events.push(event);
  }

  /** Writes the batch: the buffered events and effects, in one transaction. */
  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#failed !== undefined) throw this.#failed;
    if (this.#effects.length === 0) return;
    const events = this.#events;
    const effects = this.#effects;
    this.#events = [];
    this.#effects = [];
    this.#journal.writeEffects(this.runId, events, effects);
  }

  recordEffect(effect: EffectRecord, durable = true): undefined {
    if (this.#failed !== undefined) throw this.#failed;
    this.#effects.push(effect);
    if (durable || this.#effects.length >= GROUP_COMMIT_EFFECTS) {
      this.#flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        try {
          this.#flush();
        } catch (error) {
          this.#failed = error;
        }
      }, GROUP_COMMIT_MS);
      this.#timer.unref();
    }
    return undefined;
  }

  async finish(ending: RunEnding): Promise<void> {
    this.#flush();
    const events = this.#events;
    this.#events = [];
    this.#journal.writeEnding(this.runId, events, ending);
  }
}

/** The SQLite journal (docs/design/journal.md). */
class SqliteJournal implements Journal {
  readonly location: string;
  readonly #db: Database;
  readonly #insertEvent: Statement;
  readonly #insertEffect: Statement;
  readonly #writeEffects: (
    runId: string,
    events: readonly EventRecord[],
    effects: readonly EffectRecord[],
  ) => void;
  readonly #writeEnding: (runId: string, events: readonly EventRecord[], ending: RunEnding) => void;

  constructor(location: string, db: Database) {
    this.location = location;
    this.#db = db;
    this.#insertEvent = db.prepare(
      "INSERT INTO events (run_id, seq, type, chain, line) VALUES (?, ?, ?, ?, ?)",
    );
    this.#insertEffect = db.prepare(
      `INSERT INTO effects (run_id, effect, kind, origin, request, issued, arrival, started_us, duration_us, output, failure, events_before)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const endRun = db.prepare(
      `UPDATE runs SET ended_at = ?, outcome = ?, error_kind = ?, result = ?, effects = ?, model_rounds = ?,
       tool_calls = ?, input_tokens = ?, output_tokens = ?, events = ? WHERE id = ?`,
    );
    const insertEvents = (runId: string, events: readonly EventRecord[]): void => {
      for (const event of events) {
        this.#insertEvent.run(runId, event.seq, event.type, event.chain, event.line);
      }
    };
    this.#writeEffects = db.transaction((runId, events, effects) => {
      insertEvents(runId, events);
      for (const effect of effects)
        this.#insertEffect.run(
          runId,
          effect.effect,
          effect.kind,
          JSON.stringify(effect.origin),
          effect.request,
          effect.issued,
          effect.arrival,
          Math.round(effect.startedUs),
          Math.round(effect.durationUs),
          effect.output ?? null,
          effect.failure === undefined ? null : JSON.stringify(effect.failure),
          effect.eventsBefore,
        );
    });
    this.#writeEnding = db.transaction((runId, events, ending) => {
      insertEvents(runId, events);
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

  writeEffects(
    runId: string,
    events: readonly EventRecord[],
    effects: readonly EffectRecord[],
  ): void {
    const first = effects[0]?.effect;
    const last = effects[effects.length - 1]?.effect;
    const named = first === last ? `effect ${first}` : `effects ${first} to ${last}`;
    this.#guard(`cannot record ${named} of run ${runId}`, () =>
      this.#writeEffects(runId, events, effects),
    );
  }

  writeEnding(runId: string, events: readonly EventRecord[], ending: RunEnding): void {
    this.#guard(`cannot record the end of run ${runId}`, () =>
      this.#writeEnding(runId, events, ending),
    );
  }

  async startRun(inputs: RunInputs): Promise<RunRecorder> {
    const runId = newRunId(inputs.startedAt);
    this.#guard("cannot record a new run", () =>
      this.#db
        .prepare(
          `INSERT INTO runs (id, prompt_path, prompt_hash, prompt, args, seed, started_at, host, bindings, versions)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        ),
    );
    return new SqliteRecorder(this, runId);
  }

  #liveCounts(row: RunRow): LiveCounts | undefined {
    if (row.outcome !== null) return undefined;
    const kinds = this.#db
      .prepare("SELECT kind, count(*) AS n FROM effects WHERE run_id = ? GROUP BY kind")
      .all(row.id) as { kind: string; n: number }[];
    const events = this.#db
      .prepare("SELECT count(*) AS n FROM events WHERE run_id = ?")
      .get(row.id) as { n: number };
    const count = (kind: string): number => kinds.find((k) => k.kind === kind)?.n ?? 0;
    return {
      effects: kinds.reduce((sum, k) => sum + k.n, 0),
      modelRounds: count("model"),
      toolCalls: count("tool"),
      events: events.n,
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
      return row === undefined ? undefined : recordedRunOf(row, this.#liveCounts(row));
    });
  }

  async readEffects(runId: string): Promise<readonly EffectRecord[]> {
    return this.#guard(`cannot read the effects of run ${runId}`, () => {
      const rows = this.#db
        .prepare(
          "SELECT effect, kind, origin, request, issued, arrival, started_us, duration_us, events_before, output, failure FROM effects WHERE run_id = ? ORDER BY issued",
        )
        .all(runId) as EffectRow[];
      return rows.map(effectOf);
    });
  }

  async readEvents(runId: string): Promise<readonly EventRecord[]> {
    return this.#guard(
      `cannot read the events of run ${runId}`,
      () =>
        this.#db
          .prepare("SELECT seq, type, chain, line FROM events WHERE run_id = ? ORDER BY seq")
          .all(runId) as EventRecord[],
    );
  }

  async pruneRuns(startedBefore: number): Promise<number> {
    return this.#guard("cannot prune the runs", () =>
      this.#db.transaction(() => {
        const old = "SELECT id FROM runs WHERE started_at < ?";
        this.#db.prepare(`DELETE FROM events WHERE run_id IN (${old})`).run(startedBefore);
        this.#db.prepare(`DELETE FROM effects WHERE run_id IN (${old})`).run(startedBefore);
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
