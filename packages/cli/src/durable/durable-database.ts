/** The PostgreSQL schema of the run stores and the worker registry in a durable runs database. */
export const RUNVIL_SCHEMA = "runvil";

/** The usage error of a `--database` that is not a PostgreSQL URL, or undefined. */
export function databaseUsageError(url: string | undefined): string | undefined {
  if (url === undefined)
    return "error: --database <url> is required (postgres://user@host:port/db)";
  if (!/^postgres(ql)?:\/\//.test(url)) {
    return `error: --database must be a postgres:// URL, got ${JSON.stringify(url)}`;
  }
  return undefined;
}

import { errorCode, loadPg, redactedUrl } from "@runvil/pg-kit";

/**
 * Resolves when the PostgreSQL server at `url` accepts a connection within 5 seconds; else
 * rejects with an Error naming the server (password hidden) and what to do. The durable client
 * itself would keep trying for minutes: a command checks first.
 */
export async function checkReachable(url: string): Promise<void> {
  const { Client } = loadPg();
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    const code = errorCode(error) === "" ? "" : ` (${errorCode(error)})`;
    throw new Error(
      `cannot reach the PostgreSQL server at ${redactedUrl(url)}: ${messageOf(error)}${code}; start it or check the URL`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether `error` says the database has no DBOS tables yet (no worker launched on it). */
export function isUnpreparedDatabase(error: unknown): boolean {
  return /relation "dbos\.[a-z_]+" does not exist|column "[a-z_]+" of relation "[a-z_]+" does not exist/.test(
    messageOf(error),
  );
}

/**
 * Silences Node's deprecation warnings for this process: DBOS 5.3.0 issues a query on a pg client
 * that is still busy (pg 8.23 warns "Calling client.query() when the client is already executing
 * a query"), which is not ours to fix and would land in the middle of a command's stderr.
 */
export function quietDependencyDeprecations(): void {
  process.noDeprecation = true;
}

/** The message of an error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The text of a failure of a durable client call: DBOS's own words for a database no worker has
 * prepared yet (`relation "dbos.workflow_status" does not exist`) become what to do about it.
 */
export function durableFailureText(error: unknown): string {
  const message = messageOf(error);
  if (isUnpreparedDatabase(error)) {
    return `the database holds no durable runs tables yet (${message}): start runvil worker --database on it once, which creates them`;
  }
  return message;
}
