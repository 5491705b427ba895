import { resolveStoreLimits, type StoreLimits } from "@runvil/harness/store-kit";
import {
  errorCode,
  errorDetail,
  isUnreachable,
  migrateTables,
  openPool,
  redactedUrl,
  schemaNameProblem,
  type VersionedTables,
} from "@runvil/pg-kit";
import type { StoreText } from "@runvil/sdk";
import type * as Pg from "pg";
import { PgRunStore, type PgStoreContext } from "./pg-run-store";
import type { RetryPolicy } from "./retry";
import { STORE_MIGRATIONS, STORE_SCHEMA_VERSION } from "./schema";
import { seedRows } from "./seed-files";
import { CREATE_RUN, DELETE_RUN, HAS_RUN, SEED } from "./store-sql";

/** Options of {@link openPgStoreDatabase}. */
export interface PgStoreDatabaseOptions {
  /** The PostgreSQL schema (namespace) the store's tables live in (default `public`). */
  readonly schema?: string;
  /** At most this many connections (default 4). */
  readonly maxConnections?: number;
  /**
   * While the server is unreachable, an operation waits and tries again for this long before it
   * fails `io_error` (ms; default 10 minutes): a restart of the server pauses a run, it does not
   * fail it.
   */
  readonly unreachableForMs?: number;
  /** Hears each lost connection an operation waits through (a worker logs it). */
  readonly onUnreachable?: (message: string) => void;
}

/** Options of one run's store. */
export interface PgStoreOptions {
  /**
   * Files the store holds when it is created (path -> contents, a scenario's `store:`). They
   * are written only by the call that creates the run's store: a run recovered elsewhere opens
   * the store it left, not a fresh copy.
   */
  readonly files?: Readonly<Record<string, StoreText>>;
  /** Size limits (DEFAULT_STORE_LIMITS for any not given); they are the caller's, not stored. */
  readonly limits?: Partial<StoreLimits>;
}

/** The stores of many runs in one PostgreSQL database. */
export interface PgStoreDatabase {
  /** The URL with its password hidden. */
  readonly location: string;
  /**
   * The store of run `runId`: created (with `options.files`) when the run has none yet, else
   * the one it has. Throws the StoreError of an invalid seed.
   */
  store(runId: string, options?: PgStoreOptions): Promise<PgRunStore>;
  /** Whether run `runId` has a store. */
  hasStore(runId: string): Promise<boolean>;
  /** Deletes the store of run `runId` with its files; false when it had none. */
  deleteStore(runId: string): Promise<boolean>;
  /** Closes the connections. */
  close(): Promise<void>;
}

/** A failure to open the store database or to create a run's store, naming the server. */
export class PgStoreDatabaseError extends Error {
  /** The URL with its password hidden. */
  readonly location: string;

  constructor(location: string, message: string, options?: ErrorOptions) {
    super(`${location}: ${message}`, options);
    this.name = "PgStoreDatabaseError";
    this.location = location;
  }
}

/** `doing`: why, for a pg error, with what to do. */
function failure(location: string, doing: string, error: unknown): PgStoreDatabaseError {
  if (error instanceof PgStoreDatabaseError) return error;
  const code = errorCode(error);
  const hint = isUnreachable(error)
    ? "start the server or check the URL"
    : "check the URL, the user's rights and the server";
  return new PgStoreDatabaseError(
    location,
    `${doing}: ${errorDetail(error)}${code === "" ? "" : ` (${code})`}; ${hint}`,
    { cause: error },
  );
}

/** The store's tables: the version in runvil_store_schema, under the lock `runvil_store`. */
function storeTables(location: string, schema: string): VersionedTables {
  return {
    lock: "runvil_store",
    schema,
    versionTable: "runvil_store_schema",
    migrations: STORE_MIGRATIONS,
    newer: (version) =>
      new PgStoreDatabaseError(
        location,
        `the run store has schema version ${version}, and this Runvil reads up to version ${STORE_SCHEMA_VERSION}; upgrade Runvil to use it (it was left unchanged)`,
      ),
  };
}

class Database implements PgStoreDatabase {
  readonly location: string;
  readonly #context: PgStoreContext;

  constructor(context: PgStoreContext) {
    this.#context = context;
    this.location = context.location;
  }

  async store(runId: string, options: PgStoreOptions = {}): Promise<PgRunStore> {
    checkRunId(runId);
    const limits = resolveStoreLimits(options.limits);
    const rows = seedRows(options.files ?? {});
    const client = await this.#connect(`cannot create the store of run ${runId}`);
    const ignore = (): void => {};
    client.on("error", ignore); // seen at the next statement
    try {
      await client.query("BEGIN");
      const created = await client.query(CREATE_RUN, [runId, Date.now()]);
      if (created.rows.length > 0 && rows.length > 0) {
        await client.query(SEED, [
          runId,
          rows.map((row) => row.path),
          rows.map((row) => row.contents),
          rows.map((row) => row.contents.byteLength),
          rows.map((row) => row.validUpTo ?? null),
          rows.reduce((sum, row) => sum + row.contents.byteLength, 0),
        ]);
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      client.off("error", ignore);
      client.release(error instanceof Error ? error : undefined);
      throw failure(this.location, `cannot create the store of run ${runId}`, error);
    }
    client.off("error", ignore);
    client.release();
    return new PgRunStore(this.#context, runId, limits);
  }

  async hasStore(runId: string): Promise<boolean> {
    return (
      (await this.#query(`cannot look up the store of run ${runId}`, HAS_RUN, [runId])).length > 0
    );
  }

  async deleteStore(runId: string): Promise<boolean> {
    return (
      (await this.#query(`cannot delete the store of run ${runId}`, DELETE_RUN, [runId])).length > 0
    );
  }

  close(): Promise<void> {
    return this.#context.pool.end();
  }

  async #connect(doing: string): Promise<Pg.PoolClient> {
    try {
      return await this.#context.pool.connect();
    } catch (error) {
      throw failure(this.location, doing, error);
    }
  }

  async #query(doing: string, text: string, values: unknown[]): Promise<unknown[]> {
    try {
      return (await this.#context.pool.query(text, values)).rows;
    } catch (error) {
      throw failure(this.location, doing, error);
    }
  }
}

/** A run id is non-empty text of at most 200 characters without control characters. */
function checkRunId(runId: string): void {
  const control = [...runId].some((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === "\u007f");
  if (runId.length === 0 || runId.length > 200 || control) {
    throw new RangeError(
      `a run id must be 1 to 200 characters without control characters, got ${JSON.stringify(runId.slice(0, 40))}`,
    );
  }
}

/**
 * Opens the run stores in the PostgreSQL database at `url`
 * (`postgres://user:password@host:port/database`), creating or migrating their tables. Throws a
 * PgStoreDatabaseError naming the URL (password hidden) for an unreachable server or a newer
 * schema.
 */
export async function openPgStoreDatabase(
  url: string,
  options: PgStoreDatabaseOptions = {},
): Promise<PgStoreDatabase> {
  const location = redactedUrl(url);
  const schema = options.schema ?? "public";
  const problem = schemaNameProblem(schema);
  if (problem !== undefined) throw new PgStoreDatabaseError(location, problem);
  // A server that does not answer (a cut network) fails the connect, which is tried again.
  const pool = openPool(url, {
    schema,
    maxConnections: options.maxConnections ?? 4,
    connectTimeoutMs: 10_000,
  });
  const retry: RetryPolicy = {
    forMs: options.unreachableForMs ?? 10 * 60 * 1000,
    firstDelayMs: 50,
    maxDelayMs: 2000,
  };
  try {
    await migrateTables(pool, storeTables(location, schema));
  } catch (error) {
    await pool.end().catch(() => {});
    throw failure(location, "cannot open the run store", error);
  }
  return new Database({ pool, location, retry, onUnreachable: options.onUnreachable });
}
