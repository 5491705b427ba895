import { migrateTables, openPool } from "@runvil/pg-kit";
import type * as Pg from "pg";
import { DurableError } from "./durable-error";

/** The schema of `@runvil/durable`'s own tables in a durable runs database (beside DBOS's `dbos`). */
export const DURABLE_SCHEMA = "runvil_durable";

/** DBOS's schema in the durable runs database (DBOS 5.3.0's default, which the workers use). */
export const DBOS_SCHEMA = "dbos";

/**
 * The parked runs (docs/design/durable.md "Long waits"): one row per run whose worker let go of
 * it while it waited on an operator ask. DBOS holds the run as CANCELLED (its queue never hands
 * it to a worker); this row says it is waiting, on which ask, and which worker parked it.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE parked_runs (
    run_id TEXT PRIMARY KEY,
    ask TEXT NOT NULL,
    executor_id TEXT NOT NULL,
    parked_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
];

/**
 * A pool on the durable runs database for parking and answering (search_path `runvil_durable`),
 * its tables brought to their version first (one process at a time).
 */
export async function openParkPool(url: string): Promise<Pg.Pool> {
  const pool = openPool(url, {
    schema: DURABLE_SCHEMA,
    maxConnections: 2,
    connectTimeoutMs: 5000,
    queryTimeoutMs: 10_000,
  });
  try {
    await migrateTables(pool, {
      lock: "runvil.durable-tables",
      schema: DURABLE_SCHEMA,
      versionTable: "durable_tables_version",
      migrations: MIGRATIONS,
      newer: (found) =>
        new DurableError(
          "invalid",
          `the durable runs database holds @runvil/durable tables of version ${found}, newer than this Runvil knows (${MIGRATIONS.length}): use a newer Runvil`,
        ),
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return pool;
}
