/**
 * The store's tables, as migrations (the version is kept in `runvil_store_schema`): migration n
 * takes the tables from version n - 1 to n. A newer schema is refused, never changed. The names
 * start with `runvil_store_` so the tables can share a schema with the journal's and DBOS's.
 */
export const STORE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE runvil_store_runs (
    run_id TEXT PRIMARY KEY,
    used_bytes BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE runvil_store_files (
    run_id TEXT NOT NULL REFERENCES runvil_store_runs (run_id) ON DELETE CASCADE,
    path TEXT COLLATE "C" NOT NULL,
    contents BYTEA NOT NULL,
    bytes BIGINT NOT NULL,
    valid_up_to BIGINT,
    PRIMARY KEY (run_id, path)
  );
  CREATE TABLE runvil_store_applied (
    run_id TEXT NOT NULL REFERENCES runvil_store_runs (run_id) ON DELETE CASCADE,
    op_key TEXT NOT NULL,
    failure TEXT,
    PRIMARY KEY (run_id, op_key)
  );`,
];

/** The schema version this Runvil writes. */
export const STORE_SCHEMA_VERSION = STORE_MIGRATIONS.length;
