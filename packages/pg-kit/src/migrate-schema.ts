import type * as Pg from "pg";
import { type SchemaLock, underSchemaLock } from "./schema-lock";

/** The tables one component keeps at a version, and how to bring them to it. */
export interface VersionedTables extends SchemaLock {
  /** The table holding the one row with the tables' version (a plain name). */
  readonly versionTable: string;
  /** The statements that take version `i` to `i + 1`; their number is the current version. */
  readonly migrations: readonly string[];
  /** The error to throw when the database holds version `found`, newer than this code knows. */
  readonly newer: (found: number) => Error;
}

/**
 * Brings `tables` to their current version under the schema lock (two first opens at once
 * migrate once): creates the version table when missing, runs the migrations after the version
 * found, records the new version, all in one transaction. A database newer than the code is left
 * unchanged and `tables.newer` thrown; any failure rolls back and is rethrown as it is.
 */
export function migrateTables(pool: Pg.Pool, tables: VersionedTables): Promise<void> {
  const current = tables.migrations.length;
  const table = tables.versionTable;
  return underSchemaLock(pool, tables, async (client) => {
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER NOT NULL)`);
    const found = await client.query<{ version: number }>(`SELECT version FROM ${table}`);
    let version = found.rows[0]?.version ?? 0;
    if (version > current) throw tables.newer(version);
    for (; version < current; version += 1) {
      await client.query(tables.migrations[version] as string);
    }
    if (found.rows.length === 0) {
      await client.query(`INSERT INTO ${table} (version) VALUES ($1)`, [current]);
    } else {
      await client.query(`UPDATE ${table} SET version = $1`, [current]);
    }
  });
}
