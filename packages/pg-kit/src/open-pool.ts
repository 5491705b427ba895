import type * as Pg from "pg";
import { loadPg } from "./load-pg";
import { schemaNameProblem } from "./schema-name";

/** Options of {@link openPool}. */
export interface PoolOptions {
  /** The PostgreSQL schema every connection works in (its `search_path`). */
  readonly schema: string;
  /** At most this many connections. */
  readonly maxConnections: number;
  /** A connect that gets no answer fails after this long (ms; default: it waits as long as TCP does). */
  readonly connectTimeoutMs?: number;
  /** A query that gets no answer fails after this long (ms; default: no limit). */
  readonly queryTimeoutMs?: number;
}

/**
 * A pool of connections to the PostgreSQL database at `url` whose `search_path` is
 * `options.schema`, loading pg at the first call. No connection is made yet; an idle client's
 * loss is seen at its next query rather than thrown by the pool. Throws a RangeError for a schema
 * that is not a plain name (callers check it first, for an error of their own kind).
 */
export function openPool(url: string, options: PoolOptions): Pg.Pool {
  const problem = schemaNameProblem(options.schema);
  if (problem !== undefined) throw new RangeError(problem);
  const { Pool } = loadPg();
  const pool = new Pool({
    connectionString: url,
    max: options.maxConnections,
    options: `-c search_path=${options.schema}`,
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectionTimeoutMillis: options.connectTimeoutMs }),
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
  });
  pool.on("error", () => {}); // an idle client's loss is seen at its next query
  return pool;
}
