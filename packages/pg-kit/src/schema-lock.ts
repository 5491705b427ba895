import type * as Pg from "pg";
import { inTransaction } from "./in-transaction";

/** The advisory lock every component holds while it creates a schema. */
export const CREATE_SCHEMA_LOCK = "runvil.create-schema";

/** Where {@link underSchemaLock} works. */
export interface SchemaLock {
  /** The text whose `hashtext` keys the advisory lock (one per component). */
  readonly lock: string;
  /** The PostgreSQL schema to create (unless `public`) before `work`: the pool's search_path. */
  readonly schema: string;
}

/**
 * Runs `work` on one client of `pool` inside one transaction that holds the advisory lock
 * `lock` and has created `schema` when missing (under the lock {@link CREATE_SCHEMA_LOCK} too,
 * which every component shares): the set-up of tables that two first opens at
 * once must not race on (CREATE SCHEMA IF NOT EXISTS and CREATE TABLE IF NOT EXISTS both can).
 * Commits what `work` did and returns its value; on any failure rolls all of it back, the schema
 * too, and rethrows the failure as it is.
 */
export async function underSchemaLock<T>(
  pool: Pg.Pool,
  where: SchemaLock,
  work: (client: Pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [where.lock]);
    if (where.schema !== "public") {
      // CREATE SCHEMA IF NOT EXISTS is not safe against a concurrent one under another
      // component's lock (a duplicate key in pg_namespace: the run stores and the worker
      // registry share the schema `runvil`), so every component takes this one lock too.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [CREATE_SCHEMA_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${where.schema}`);
    }
    return work(client);
  });
}
