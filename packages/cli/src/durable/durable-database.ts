import { errorCode, errorDetail, loadPg, redactedUrl, redactedUserinfo } from "@runvil/pg-kit";

/** The PostgreSQL schema of the run stores and the worker registry in a durable runs database. */
export const RUNVIL_SCHEMA = "runvil";

/**
 * The usage error of a `--database` that is not a PostgreSQL URL, or undefined. The text is shown
 * with what stands before its last `@` hidden (`runvil:secret@host/db` shows `***@host/db`).
 */
export function databaseUsageError(url: string | undefined): string | undefined {
  if (url === undefined)
    return "error: --database <url> is required (postgres://user@host:port/db)";
  if (!/^postgres(ql)?:\/\//.test(url)) {
    return `error: --database must be a postgres:// URL, got ${JSON.stringify(redactedUserinfo(url))}`;
  }
  return undefined;
}

/**
 * Resolves when the PostgreSQL server at `url` accepts a connection within 5 seconds; else
 * rejects with an Error naming the server (password hidden), what failed and what to do. The
 * durable client itself would keep trying for minutes: a command checks first.
 */
export async function checkReachable(url: string): Promise<void> {
  const { Client } = loadPg();
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new Error(connectFailureText(url, error));
  } finally {
    await client.end().catch(() => {});
  }
}

/** SQLSTATEs of a refused login: invalid_password, invalid_authorization_specification. */
const LOGIN_REFUSED = new Set(["28P01", "28000"]);

/**
 * What failed when connecting to `url`, in one line naming the server (password hidden): the
 * server out of reach, the login refused, no such database, or the server's own words.
 */
export function connectFailureText(url: string, error: unknown): string {
  const where = redactedUrl(url);
  const code = errorCode(error);
  const detail = `${errorDetail(error)}${code === "" ? "" : ` (${code})`}`;
  if (LOGIN_REFUSED.has(code)) {
    return `the PostgreSQL server at ${where} refused the login: ${detail}; check the user and password of the URL`;
  }
  if (code === "3D000") {
    return `the PostgreSQL server at ${where} has no such database: ${detail}; create it (createdb) or check the URL`;
  }
  if (code === "" || /^E[A-Z_]+$/.test(code) || code.startsWith("08") || code.startsWith("57P")) {
    return `cannot reach the PostgreSQL server at ${where}: ${detail}; start it or check the host and port`;
  }
  return `cannot connect to the PostgreSQL server at ${where}: ${detail}`;
}

/** Whether `error` says the database has no DBOS tables yet (no worker launched on it). */
export function isUnpreparedDatabase(error: unknown): boolean {
  return /relation "dbos\.[a-z_]+" does not exist|column "[a-z_]+" of relation "[a-z_]+" does not exist/.test(
    messageOf(error),
  );
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
