import { hostname } from "node:os";
import { inTransaction, openPool, underSchemaLock } from "@runvil/pg-kit";
import type * as Pg from "pg";

/**
 * The workers of one durable runs database (docs/design/durable-workers.md): each worker keeps a
 * row with a heartbeat (the server's clock, so machines need no common one); a worker whose
 * heartbeat is older than the dead-after time is taken for dead, and the first live worker to
 * claim it (a row lock, so exactly one) puts its runs back on the queue. That is executor
 * recovery without DBOS's hosted conductor.
 */
export const WORKERS_TABLE = `CREATE TABLE IF NOT EXISTS runvil_workers (
  executor_id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  runvil_version TEXT NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  stopped_at TIMESTAMPTZ,
  recovered_by TEXT
)`;

/** One worker as the registry knows it. */
export interface WorkerRow {
  readonly executorId: string;
  readonly host: string;
  readonly pid: number;
  readonly runvilVersion: string;
  /** Seconds since its last heartbeat, by the server's clock. */
  readonly silentSeconds: number;
  readonly stopped: boolean;
}

/** The registry of one database, for one worker. */
export class WorkerRegistry {
  readonly #pool: Pg.Pool;
  readonly executorId: string;
  /** When this worker last failed to reach the database (Date.now()), if it ever did. */
  #lastFailureAt: number | undefined;

  private constructor(pool: Pg.Pool, executorId: string) {
    this.#pool = pool;
    this.executorId = executorId;
  }

  /** Opens the registry in `schema` of the database at `url` (creating its table). */
  static async open(url: string, schema: string, executorId: string): Promise<WorkerRegistry> {
    // A beat never hangs on a server that does not answer: it fails and is tried again.
    const pool = openPool(url, {
      schema,
      maxConnections: 2,
      connectTimeoutMs: 5000,
      queryTimeoutMs: 10_000,
    });
    try {
      await underSchemaLock(pool, { lock: "runvil_workers", schema }, (client) =>
        client.query(WORKERS_TABLE),
      );
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return new WorkerRegistry(pool, executorId);
  }

  /** Registers this worker as live (a restart with the same executor id takes its row back). */
  async register(runvilVersion: string): Promise<void> {
    await this.#pool.query(
      `INSERT INTO runvil_workers (executor_id, host, pid, runvil_version) VALUES ($1, $2, $3, $4)
       ON CONFLICT (executor_id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid,
         runvil_version = EXCLUDED.runvil_version, started_at = now(), heartbeat_at = now(),
         stopped_at = NULL, recovered_by = NULL`,
      [this.executorId, hostname(), process.pid, runvilVersion],
    );
  }

  /** Refreshes this worker's heartbeat. */
  async beat(): Promise<void> {
    await this.#noting(() =>
      this.#pool.query(
        "UPDATE runvil_workers SET heartbeat_at = now() WHERE executor_id = $1 AND stopped_at IS NULL",
        [this.executorId],
      ),
    );
  }

  /** Runs `operation`, noting when it fails (the database was out of reach). */
  async #noting<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.#lastFailureAt = Date.now();
      throw error;
    }
  }

  /**
   * Claims every worker silent for `deadAfterSeconds` and not stopped, and hands their executor
   * ids to `recover` inside the claim's transaction: if `recover` fails (or this worker dies), the
   * claim is rolled back and the next live worker claims them again. Resolves with what
   * `recover` returned per claimed executor.
   *
   * Silence is evidence of death only while the database could hear: nobody is claimed until the
   * server has been up for `deadAfterSeconds` (a restarted server: every worker's heartbeat
   * stopped with it), nor by a worker that failed a heartbeat in the last
   * `deadAfterSeconds` (an outage of the network: the others could not beat either). After an
   * outage every live worker has beaten again before anyone is taken for dead.
   */
  async recoverDead<T>(
    deadAfterSeconds: number,
    recover: (executorIds: readonly string[]) => Promise<T>,
  ): Promise<{ readonly executorIds: readonly string[]; readonly recovered: T } | undefined> {
    if (
      this.#lastFailureAt !== undefined &&
      Date.now() - this.#lastFailureAt < deadAfterSeconds * 1000
    ) {
      return undefined;
    }
    return this.#claim(deadAfterSeconds, recover);
  }

  async #claim<T>(
    deadAfterSeconds: number,
    recover: (executorIds: readonly string[]) => Promise<T>,
  ): Promise<{ readonly executorIds: readonly string[]; readonly recovered: T } | undefined> {
    return inTransaction(this.#pool, async (client) => {
      const claimed = await client.query<{ executor_id: string }>(
        `UPDATE runvil_workers SET stopped_at = now(), recovered_by = $1
         WHERE executor_id IN (
           SELECT executor_id FROM runvil_workers
           WHERE executor_id <> $1 AND stopped_at IS NULL
             AND heartbeat_at < now() - make_interval(secs => $2)
             AND pg_postmaster_start_time() < now() - make_interval(secs => $2)
           FOR UPDATE SKIP LOCKED)
         RETURNING executor_id`,
        [this.executorId, deadAfterSeconds],
      );
      const executorIds = claimed.rows.map((row) => row.executor_id).sort();
      if (executorIds.length === 0) return undefined;
      const recovered = await recover(executorIds);
      return { executorIds, recovered };
    });
  }

  /**
   * Marks this worker gone (a drained worker): its heartbeat goes back to the epoch, so the next
   * look of any live worker claims it and puts its runs back on the queue.
   */
  async abandon(): Promise<void> {
    await this.#pool.query(
      "UPDATE runvil_workers SET heartbeat_at = 'epoch' WHERE executor_id = $1 AND stopped_at IS NULL",
      [this.executorId],
    );
  }

  /** Every worker the registry knows, live ones first. */
  async list(): Promise<WorkerRow[]> {
    const rows = await this.#pool.query<{
      executor_id: string;
      host: string;
      pid: number;
      runvil_version: string;
      silent: string;
      stopped: boolean;
    }>(
      `SELECT executor_id, host, pid, runvil_version,
         EXTRACT(EPOCH FROM now() - heartbeat_at)::text AS silent, stopped_at IS NOT NULL AS stopped
       FROM runvil_workers ORDER BY stopped_at IS NOT NULL, executor_id`,
    );
    return rows.rows.map((row) => ({
      executorId: row.executor_id,
      host: row.host,
      pid: row.pid,
      runvilVersion: row.runvil_version,
      silentSeconds: Number(row.silent),
      stopped: row.stopped,
    }));
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}
