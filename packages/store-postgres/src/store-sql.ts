/**
 * The statements of a PostgreSQL run store. Every one names the run (`$1`); paths compare in the
 * "C" collation, which orders UTF-8 text bytewise (code point order, like every store backend).
 */

/** Locks the run's store row for the rest of the transaction; creates it when absent. */
export const LOCK_RUN = `INSERT INTO runvil_store_runs (run_id, created_at) VALUES ($1, $2)
  ON CONFLICT (run_id) DO UPDATE SET run_id = EXCLUDED.run_id
  RETURNING used_bytes`;

/** The recorded outcome of an operation key ($2), if the operation already committed. */
export const APPLIED = `SELECT failure FROM runvil_store_applied WHERE run_id = $1 AND op_key = $2`;

/**
 * The files among the paths $2 (a target and its ancestors), with the contents of $5 when $4;
 * plus one row with a null path when some file lies below $3 (the target is a directory).
 */
export const PROBE = `SELECT path, bytes, valid_up_to, CASE WHEN $4::boolean AND path = $5 THEN contents END AS contents
    FROM runvil_store_files WHERE run_id = $1 AND path = ANY($2::text[])
  UNION ALL
  (SELECT NULL, NULL, NULL, NULL FROM runvil_store_files
    WHERE run_id = $1 AND path >= $3 COLLATE "C" AND path < $6 COLLATE "C" LIMIT 1)`;

/** One file: bytes, valid_up_to and contents ($2 the path). */
export const READ_FILE = `SELECT bytes, valid_up_to, contents FROM runvil_store_files WHERE run_id = $1 AND path = $2`;

/** Whether a file lies in the range [$2, $3) (a directory's files). */
export const ANY_BELOW = `SELECT 1 FROM runvil_store_files WHERE run_id = $1 AND path >= $2 COLLATE "C" AND path < $3 COLLATE "C" LIMIT 1`;

/** Whether $2 is a file. */
export const IS_FILE = `SELECT 1 FROM runvil_store_files WHERE run_id = $1 AND path = $2`;

/** Every path in the range [$2, $3), in order. */
export const PATHS_IN_RANGE = `SELECT path FROM runvil_store_files
  WHERE run_id = $1 AND path >= $2 COLLATE "C" AND path < $3 COLLATE "C" ORDER BY path`;

/** Every path of the run, in order. */
export const ALL_PATHS = `SELECT path FROM runvil_store_files WHERE run_id = $1 ORDER BY path`;

/**
 * The end of a mutating operation, in one statement: `change` (a CTE over $1 run, $4 path,
 * $5 contents, $6 bytes), the run's new byte total ($3) and the record of key $2.
 */
function finish(change: string): string {
  return `WITH change AS (${change}),
    total AS (UPDATE runvil_store_runs SET used_bytes = $3 WHERE run_id = $1)
    INSERT INTO runvil_store_applied (run_id, op_key, failure) VALUES ($1, $2, NULL)`;
}

/** Creates or replaces file $4 with $5 ($6 bytes). */
export const FINISH_WRITE =
  finish(`INSERT INTO runvil_store_files (run_id, path, contents, bytes, valid_up_to)
  VALUES ($1, $4, $5, $6, NULL)
  ON CONFLICT (run_id, path) DO UPDATE SET contents = EXCLUDED.contents, bytes = EXCLUDED.bytes, valid_up_to = NULL`);

/** Adds $5 ($6 bytes) at the end of file $4, creating it. */
export const FINISH_APPEND =
  finish(`INSERT INTO runvil_store_files (run_id, path, contents, bytes, valid_up_to)
  VALUES ($1, $4, $5, $6, NULL)
  ON CONFLICT (run_id, path) DO UPDATE SET contents = runvil_store_files.contents || EXCLUDED.contents,
    bytes = runvil_store_files.bytes + EXCLUDED.bytes`);

/** Deletes file $4 (this statement takes no $5 or $6). */
export const FINISH_DELETE = finish(
  `DELETE FROM runvil_store_files WHERE run_id = $1 AND path = $4`,
);

/** Records the failure $3 of key $2 (a failed operation changes nothing, once). */
export const RECORD_FAILURE = `INSERT INTO runvil_store_applied (run_id, op_key, failure) VALUES ($1, $2, $3)`;

/** Creates the run's store row when absent; returns a row only when it was created. */
export const CREATE_RUN = `INSERT INTO runvil_store_runs (run_id, created_at) VALUES ($1, $2)
  ON CONFLICT (run_id) DO NOTHING RETURNING run_id`;

/** Inserts seed files ($2 paths, $3 contents, $4 bytes, $5 valid_up_to) and sets the total ($6). */
export const SEED = `WITH files AS (INSERT INTO runvil_store_files (run_id, path, contents, bytes, valid_up_to)
    SELECT $1, p, c, b, v FROM unnest($2::text[], $3::bytea[], $4::bigint[], $5::bigint[]) AS u (p, c, b, v))
  UPDATE runvil_store_runs SET used_bytes = $6 WHERE run_id = $1`;

/** Whether the run has a store. */
export const HAS_RUN = `SELECT 1 FROM runvil_store_runs WHERE run_id = $1`;

/** Deletes the run's store: its files and operation records go with it. */
export const DELETE_RUN = `DELETE FROM runvil_store_runs WHERE run_id = $1 RETURNING run_id`;

/** The first path after every path below directory `path` (`/` + 1 is `0`). */
export function rangeEnd(directory: string): string {
  return `${directory}0`;
}
