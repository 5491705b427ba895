import { inTransaction } from "@runvil/pg-kit";
import type * as Pg from "pg";
import { DURABLE_QUEUE } from "./names";
import { DBOS_SCHEMA } from "./park-tables";

/**
 * The two transitions of a parked run (docs/design/durable.md "Long waits"), each one
 * transaction under the run's advisory lock, so that an answer and a park of the same run are
 * ordered: an answer either lands before the park (which then sees it and does not park) or
 * after it (and puts the run back on the queue). The status changes are DBOS 5.3.0's own
 * cancel and resume statements (system_database.js `#cancelWorkflows`, `resumeWorkflows`),
 * written here so that they commit with the check and the parked row; the cancel is narrowed
 * to the execution that parks (its ownership token), the resume to a cancelled run.
 */

/** DBOS 5.3.0's LISTEN channel of notifications (system_database.js DBOS_NOTIFICATIONS_CHANNEL). */
const DBOS_NOTIFICATIONS_CHANNEL = "dbos_notifications_channel";

const RUN_LOCK = "SELECT pg_advisory_xact_lock(hashtext('runvil.park'), hashtext($1))";
const NOW_MS = "(EXTRACT(EPOCH FROM now()) * 1000)::bigint";

/** What a park attempt found. */
export type ParkOutcome =
  /** Parked: DBOS holds the run as CANCELLED, the parked row names its ask. */
  | "parked"
  /** One of its asks has an answer already (delivered or consumed): not parked. */
  | "answered"
  /** The run is no longer this execution's (recovered elsewhere, ended): not parked. */
  | "not_owner";

/** One parked run as its row says. */
export interface ParkedRun {
  readonly runId: string;
  /** The ask it waits on (the oldest one its execution waited on). */
  readonly ask: string;
  /** The worker that parked it. */
  readonly executorId: string;
  readonly parkedAt: number;
}

/** Runs `work` in one transaction holding the run's advisory lock. */
function underRunLock<T>(
  pool: Pg.Pool,
  runId: string,
  work: (client: Pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(RUN_LOCK, [runId]);
    return work(client);
  });
}

/**
 * Parks the run `runId` whose execution (DBOS ownership token `ownerXid`) waits on `asks` and
 * on nothing else: unless one of the asks has a notification already, or the run is no longer
 * PENDING under that token, DBOS's row becomes CANCELLED (no queue hands it out) and the parked
 * row is written, in one transaction. Throws when the database cannot be asked (nothing parked).
 */
export function parkRun(
  pool: Pg.Pool,
  park: {
    readonly runId: string;
    readonly ownerXid: string;
    readonly asks: readonly string[];
    readonly executorId: string;
  },
): Promise<ParkOutcome> {
  return underRunLock(pool, park.runId, async (client): Promise<ParkOutcome> => {
    const answered = await client.query(
      `SELECT 1 FROM ${DBOS_SCHEMA}.notifications WHERE destination_uuid = $1 AND topic = ANY($2) LIMIT 1`,
      [park.runId, [...park.asks]],
    );
    if (answered.rows.length > 0) return "answered";
    const cancelled = await client.query(
      `UPDATE ${DBOS_SCHEMA}.workflow_status
       SET status = 'CANCELLED', owner_xid = NULL, queue_name = NULL, deduplication_id = NULL,
           started_at_epoch_ms = NULL, updated_at = ${NOW_MS}, completed_at = ${NOW_MS}
       WHERE workflow_uuid = $1 AND status = 'PENDING' AND owner_xid = $2`,
      [park.runId, park.ownerXid],
    );
    if (cancelled.rowCount !== 1) return "not_owner";
    await client.query(
      `INSERT INTO parked_runs (run_id, ask, executor_id) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET ask = EXCLUDED.ask, executor_id = EXCLUDED.executor_id,
         parked_at = now()`,
      [park.runId, park.asks[0], park.executorId],
    );
    // At the commit, the parked execution's DBOS.recv of each ask wakes (DBOS's own channel and
    // payload, `{run}::{topic}`), sees the cancel and ends, rather than at its next 10 s poll.
    await client.query(
      `SELECT pg_notify('${DBOS_NOTIFICATIONS_CHANNEL}', $1 || '::' || topic) FROM unnest($2::text[]) AS topic`,
      [park.runId, [...park.asks]],
    );
    return "parked";
  });
}

/**
 * Answers the run `runId`: `send` writes the notification in the transaction (DBOS's
 * `sendInTransaction`), then, when the run is parked, its parked row goes and DBOS's row is put
 * back on the `runvil-runs` queue, all in one transaction under the run's lock. Resolves with
 * whether the run was parked (and is queued now).
 */
export function answerRun(
  pool: Pg.Pool,
  runId: string,
  send: (client: Pg.PoolClient) => Promise<void>,
): Promise<{ readonly resumed: boolean }> {
  return underRunLock(pool, runId, async (client) => {
    await send(client);
    const parked = await client.query("DELETE FROM parked_runs WHERE run_id = $1 RETURNING ask", [
      runId,
    ]);
    if (parked.rows.length === 0) return { resumed: false };
    const resumed = await client.query(
      `UPDATE ${DBOS_SCHEMA}.workflow_status
       SET status = 'ENQUEUED', owner_xid = NULL, queue_name = $2, recovery_attempts = 0,
           workflow_deadline_epoch_ms = NULL, deduplication_id = NULL, started_at_epoch_ms = NULL,
           updated_at = ${NOW_MS}, completed_at = NULL
       WHERE workflow_uuid = $1 AND status = 'CANCELLED'`,
      [runId, DURABLE_QUEUE],
    );
    return { resumed: resumed.rowCount === 1 };
  });
}

/** The parked rows of `runIds` (those that have one), by run id. */
export async function parkedRuns(
  pool: Pg.Pool,
  runIds: readonly string[],
): Promise<Map<string, ParkedRun>> {
  const found = new Map<string, ParkedRun>();
  if (runIds.length === 0) return found;
  const rows = await pool.query<{
    run_id: string;
    ask: string;
    executor_id: string;
    parked_ms: string;
  }>(
    `SELECT run_id, ask, executor_id, (EXTRACT(EPOCH FROM parked_at) * 1000)::bigint::text AS parked_ms
     FROM parked_runs WHERE run_id = ANY($1)`,
    [[...runIds]],
  );
  for (const row of rows.rows) {
    found.set(row.run_id, {
      runId: row.run_id,
      ask: row.ask,
      executorId: row.executor_id,
      parkedAt: Number(row.parked_ms),
    });
  }
  return found;
}
