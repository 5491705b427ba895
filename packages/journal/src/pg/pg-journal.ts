import {
  migrateTables,
  openPool,
  redactedUrl,
  schemaNameProblem,
  type VersionedTables,
} from "@runvil/pg-kit";
import type * as Pg from "pg";
import { encodeValue } from "../codec";
import {
  type ClaimRunOptions,
  EVENT_COMMIT_MS,
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
import { pgFailure } from "./pg-failure";
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from "./schema";

/** Options of {@link openPgJournal}. */
export interface PgJournalOptions {
  /** The PostgreSQL schema (namespace) the journal's tables live in (default `public`). */
  readonly schema?: string;
  /** At most this many connections (default 4). */
  readonly maxConnections?: number;
}

interface EffectRow {
  readonly effect: string;
  readonly kind: string;
  readonly origin: string;
  readonly request: string;
  readonly issued: number;
  readonly arrival: number;
  readonly started_us: string;
  readonly duration_us: string;
  readonly events_before: number;
  readonly output: string | null;
  readonly failure: string | null;
}

const EVENTS_CTE = `ev AS (INSERT INTO events (run_id, seq, type, chain, line)
  SELECT $1, s, t, c, l FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS u (s, t, c, l))`;

function eventColumns(events: readonly EventRecord[]): [number[], string[], string[], string[]] {
  return [
    events.map((e) => e.seq),
    events.map((e) => e.type),
    events.map((e) => e.chain),
    events.map((e) => e.line),
  ];
}

class PgRecorder implements RunRecorder {
  readonly runId: string;
  readonly #journal: PgJournal;
  #events: EventRecord[] = [];
  /** Writes of one run go in order. */
  #tail: Promise<void> = Promise.resolve();
  /** The event window's timer ({@link EVENT_COMMIT_MS}): events waiting for no effect. */
  #eventTimer: NodeJS.Timeout | undefined;
  /** A failure of a write the event timer made, thrown by the next write. */
  #failed: unknown;

  constructor(journal: PgJournal, runId: string) {
    this.#journal = journal;
    this.runId = runId;
  }

  recordEvent(event: EventRecord): void {
    this.#events.push(event);
    if (this.#eventTimer === undefined) {
      this.#eventTimer = setTimeout(this.#onEventTimer, EVENT_COMMIT_MS);
      this.#eventTimer.unref();
    }
  }

  readonly #onEventTimer = (): void => {
    this.#eventTimer = undefined;
    if (this.#events.length === 0 || this.#failed !== undefined) return;
    const events = this.#events;
    this.#events = [];
    this.#queue(() => this.#journal.writeEvents(this.runId, events)).catch((error: unknown) => {
      this.#failed ??= error;
    });
  };

  #queue(write: () => Promise<void>): Promise<void> {
    const failed = this.#failed;
    const next =
      failed === undefined ? this.#tail.then(write) : Promise.reject<void>(failed as Error);
    this.#tail = next.catch(() => {});
    return next;
  }

  recordEffect(effect: EffectRecord): Promise<void> {
    const events = this.#events;
    this.#events = [];
    return this.#queue(() => this.#journal.writeEffect(this.runId, events, effect));
  }

  recordIntent(intent: StoreIntent): Promise<void> {
    // The buffered events and the intent commit together, as in SQLite: a crash-safe point.
    const events = this.#events;
    this.#events = [];
    return this.#queue(() => this.#journal.writeIntent(this.runId, events, intent));
  }

  dropEventsFrom(seq: number): Promise<void> {
    return this.#queue(() => this.#journal.dropEvents(this.runId, seq));
  }

  finish(ending: RunEnding): Promise<void> {
    if (this.#eventTimer !== undefined) clearTimeout(this.#eventTimer);
    this.#eventTimer = undefined;
    const events = this.#events;
    this.#events = [];
    return this.#queue(() => this.#journal.writeEnding(this.runId, events, ending));
  }
}

/** The PostgreSQL journal (docs/design/journal.md). */
class PgJournal implements Journal {
  readonly location: string;
  readonly #pool: Pg.Pool;

  constructor(location: string, pool: Pg.Pool) {
    this.location = location;
    this.#pool = pool;
  }

  async #query<R extends Pg.QueryResultRow>(
    doing: string,
    text: string,
    values: unknown[] = [],
  ): Promise<R[]> {
    try {
      return (await this.#pool.query<R>(text, values)).rows;
    } catch (error) {
      throw pgFailure(this.location, doing, error);
    }
  }

  async writeEffect(
    runId: string,
    events: readonly EventRecord[],
    effect: EffectRecord,
  ): Promise<void> {
    await this.#query(
      `cannot record effect ${effect.effect} of run ${runId}`,
      `WITH ${EVENTS_CTE}
       INSERT INTO effects (run_id, effect, kind, origin, request, issued, arrival, started_us, duration_us, output, failure, events_before)
       VALUES ($1, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        runId,
        ...eventColumns(events),
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
      ],
    );
  }

  async writeEvents(runId: string, events: readonly EventRecord[]): Promise<void> {
    await this.#query(
      `cannot record the events of run ${runId}`,
      `INSERT INTO events (run_id, seq, type, chain, line)
       SELECT $1, s, t, c, l FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS u (s, t, c, l)`,
      [runId, ...eventColumns(events)],
    );
  }

  async writeEnding(
    runId: string,
    events: readonly EventRecord[],
    ending: RunEnding,
  ): Promise<void> {
    const counts = ending.counts;
    await this.#query(
      `cannot record the end of run ${runId}`,
      `WITH ${EVENTS_CTE}
       UPDATE runs SET ended_at = $6, outcome = $7, error_kind = $8, result = $9, effects = $10,
         model_rounds = $11, tool_calls = $12, input_tokens = $13, output_tokens = $14, events = $15,
         owner = NULL
       WHERE id = $1`,
      [
        runId,
        ...eventColumns(events),
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
      ],
    );
  }

  async writeIntent(
    runId: string,
    events: readonly EventRecord[],
    intent: StoreIntent,
  ): Promise<void> {
    await this.#query(
      `cannot record the store intent of effect ${intent.effect} of run ${runId}`,
      `WITH ${EVENTS_CTE}
       INSERT INTO store_intents (run_id, effect, path, before) VALUES ($1, $6, $7, $8)
       ON CONFLICT (run_id, effect) DO UPDATE SET path = EXCLUDED.path, before = EXCLUDED.before`,
      [runId, ...eventColumns(events), intent.effect, intent.path, intent.before],
    );
  }

  async dropEvents(runId: string, fromSeq: number): Promise<void> {
    await this.#query(
      `cannot rewrite the events of run ${runId}`,
      "DELETE FROM events WHERE run_id = $1 AND seq >= $2",
      [runId, fromSeq],
    );
  }

  /** Runs `work` in one transaction on one connection, the run's row locked. */
  async #withRunLocked(
    doing: string,
    runId: string,
    work: (client: Pg.PoolClient, row: ResumableRow | undefined) => Promise<void>,
  ): Promise<void> {
    let client: Pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw pgFailure(this.location, doing, error);
    }
    try {
      await client.query("BEGIN");
      const found = await client.query<ResumableRow>(
        "SELECT outcome, ended_at, owner FROM runs WHERE id = $1 FOR UPDATE",
        [runId],
      );
      await work(client, found.rows[0]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw pgFailure(this.location, doing, error);
    } finally {
      client.release();
    }
  }

  async claimRun(runId: string, options: ClaimRunOptions = {}): Promise<RunClaim> {
    const mine = ownerText(currentOwner());
    let previous: string | null = null;
    await this.#withRunLocked(`cannot claim run ${runId}`, runId, async (client, row) => {
      checkResumable(this.location, runId, row, options.force);
      previous = row?.owner ?? null;
      await client.query("UPDATE runs SET owner = $2 WHERE id = $1", [runId, mine]);
    });
    return {
      release: async () => {
        await this.#query(
          `cannot release run ${runId}`,
          "UPDATE runs SET owner = $2 WHERE id = $1 AND owner = $3",
          [runId, previous, mine],
        );
      },
    };
  }

  async resumeRun(runId: string): Promise<RunRecorder> {
    await this.#withRunLocked(`cannot reopen run ${runId}`, runId, async (client, row) => {
      // A claim of this process (claimRun) is its own: only another live owner refuses.
      checkResumable(this.location, runId, row, true);
      await client.query(
        "DELETE FROM effects WHERE run_id = $1 AND failure IS NOT NULL AND (failure::json ->> 'type') = 'error'",
        [runId],
      );
      await client.query(
        `WITH up AS (UPDATE runs SET ended_at = NULL, outcome = NULL, error_kind = NULL, result = NULL,
           resumes = resumes + 1, owner = $2 WHERE id = $1 RETURNING id, resumes)
         INSERT INTO resumes (run_id, n, resumed_at) SELECT id, resumes, $3 FROM up`,
        [runId, ownerText(currentOwner()), Date.now()],
      );
    });
    return new PgRecorder(this, runId);
  }

  async readIntents(runId: string): Promise<readonly StoreIntent[]> {
    return this.#query<StoreIntent & Pg.QueryResultRow>(
      `cannot read the store intents of run ${runId}`,
      "SELECT effect, path, before FROM store_intents WHERE run_id = $1 ORDER BY ctid",
      [runId],
    );
  }

  async resumeCount(runId: string): Promise<number> {
    const rows = await this.#query<{ resumes: number }>(
      `cannot read run ${runId}`,
      "SELECT resumes FROM runs WHERE id = $1",
      [runId],
    );
    const row = rows[0];
    if (row === undefined) throw noSuchRun(this.location, runId);
    return row.resumes;
  }

  async startRun(inputs: RunInputs): Promise<RunRecorder> {
    const runId = newRunId(inputs.startedAt);
    await this.#query(
      "cannot record a new run",
      `INSERT INTO runs (id, prompt_path, prompt_hash, prompt, args, seed, started_at, host, bindings, versions, owner)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
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
      ],
    );
    return new PgRecorder(this, runId);
  }

  async #liveCounts(row: RunRow): Promise<LiveCounts | undefined> {
    if (row.outcome !== null) return undefined;
    const kinds = await this.#query<{ kind: string; n: string }>(
      `cannot read run ${row.id}`,
      "SELECT kind, count(*) AS n FROM effects WHERE run_id = $1 GROUP BY kind",
      [row.id],
    );
    const events = await this.#query<{ n: string; tools: string }>(
      `cannot read run ${row.id}`,
      "SELECT count(*) AS n, count(*) FILTER (WHERE type = $2) AS tools FROM events WHERE run_id = $1",
      [row.id, TOOL_CALL_EVENT],
    );
    const count = (kind: string): number => Number(kinds.find((k) => k.kind === kind)?.n ?? 0);
    return {
      effects: kinds.reduce((sum, k) => sum + Number(k.n), 0),
      modelRounds: count("model"),
      toolCalls: Number(events[0]?.tools ?? 0),
      events: Number(events[0]?.n ?? 0),
    };
  }

  async listRuns(options: ListRunsOptions = {}): Promise<readonly RunSummary[]> {
    const rows = await this.#query<RunRow & Pg.QueryResultRow>(
      "cannot list the runs",
      `SELECT ${SUMMARY_COLUMNS} FROM runs ORDER BY started_at DESC, id DESC LIMIT $1`,
      [options.limit ?? null],
    );
    const summaries: RunSummary[] = [];
    for (const row of rows) summaries.push(summaryOf(row, await this.#liveCounts(row)));
    return summaries;
  }

  async findRun(idOrPrefix: string): Promise<RecordedRun | undefined> {
    if (!isRunIdText(idOrPrefix)) return undefined;
    const doing = `cannot read run ${idOrPrefix}`;
    const columns = `${SUMMARY_COLUMNS}, ${INPUT_COLUMNS}`;
    let rows = await this.#query<FullRunRow & Pg.QueryResultRow>(
      doing,
      `SELECT ${columns} FROM runs WHERE id = $1`,
      [idOrPrefix],
    );
    if (rows.length === 0) {
      rows = await this.#query<FullRunRow & Pg.QueryResultRow>(
        doing,
        `SELECT ${columns} FROM runs WHERE left(id, $2) = $1 ORDER BY id LIMIT 2`,
        [idOrPrefix, idOrPrefix.length],
      );
      if (rows.length > 1) {
        throw new JournalError(
          "ambiguous_id",
          this.location,
          `${idOrPrefix} names several runs (${rows.map((r) => r.id).join(", ")}, …); give more of the id`,
        );
      }
    }
    const row = rows[0];
    if (row === undefined) return undefined;
    const resumes = await this.#query<{ resumed_at: string }>(
      doing,
      "SELECT resumed_at FROM resumes WHERE run_id = $1 ORDER BY n",
      [row.id],
    );
    return recordedRunOf(
      row,
      resumes.map((r) => Number(r.resumed_at)),
      await this.#liveCounts(row),
    );
  }

  async readEffects(runId: string): Promise<readonly EffectRecord[]> {
    const rows = await this.#query<EffectRow & Pg.QueryResultRow>(
      `cannot read the effects of run ${runId}`,
      "SELECT effect, kind, origin, request, issued, arrival, started_us, duration_us, events_before, output, failure FROM effects WHERE run_id = $1 ORDER BY issued",
      [runId],
    );
    return rows.map((row) => {
      const failure = failureOf(row.failure);
      return {
        effect: row.effect,
        kind: row.kind as EffectRecord["kind"],
        origin: JSON.parse(row.origin) as EffectRecord["origin"],
        request: row.request,
        issued: row.issued,
        arrival: row.arrival,
        startedUs: Number(row.started_us),
        durationUs: Number(row.duration_us),
        eventsBefore: row.events_before,
        ...(row.output === null ? {} : { output: row.output }),
        ...(failure === undefined ? {} : { failure }),
      };
    });
  }

  async readEvents(runId: string): Promise<readonly EventRecord[]> {
    return this.#query<EventRecord & Pg.QueryResultRow>(
      `cannot read the events of run ${runId}`,
      "SELECT seq, type, chain, line FROM events WHERE run_id = $1 ORDER BY seq",
      [runId],
    );
  }

  async pruneRuns(startedBefore: number): Promise<number> {
    const rows = await this.#query<{ n: string }>(
      "cannot prune the runs",
      `WITH old AS (SELECT id FROM runs WHERE started_at < $1),
        e1 AS (DELETE FROM events WHERE run_id IN (SELECT id FROM old)),
        e2 AS (DELETE FROM effects WHERE run_id IN (SELECT id FROM old)),
        e3 AS (DELETE FROM store_intents WHERE run_id IN (SELECT id FROM old)),
        e4 AS (DELETE FROM resumes WHERE run_id IN (SELECT id FROM old)),
        gone AS (DELETE FROM runs WHERE id IN (SELECT id FROM old) RETURNING id)
       SELECT count(*) AS n FROM gone`,
      [startedBefore],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

/** The journal's tables: the version in runvil_journal, under the lock `runvil_journal`. */
function journalTables(location: string, schema: string): VersionedTables {
  return {
    lock: "runvil_journal",
    schema,
    versionTable: "runvil_journal",
    migrations: PG_MIGRATIONS,
    newer: (version) =>
      new JournalError(
        "newer_schema",
        location,
        `the journal has schema version ${version}, and this Runvil reads up to version ${PG_SCHEMA_VERSION}; upgrade Runvil to read it (it was left unchanged)`,
      ),
  };
}

/**
 * Opens the PostgreSQL journal at `url` (`postgres://user:password@host:port/database`),
 * creating or migrating its tables. Throws a JournalError naming the URL (password hidden) for an
 * unreachable server, a newer schema, a full disk.
 */
export async function openPgJournal(url: string, options: PgJournalOptions = {}): Promise<Journal> {
  const location = redactedUrl(url);
  const schema = options.schema ?? "public";
  const problem = schemaNameProblem(schema);
  if (problem !== undefined) throw new JournalError("unavailable", location, problem);
  const pool = openPool(url, { schema, maxConnections: options.maxConnections ?? 4 });
  try {
    await migrateTables(pool, journalTables(location, schema));
    return new PgJournal(location, pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw pgFailure(location, "cannot open the journal", error);
  }
}
