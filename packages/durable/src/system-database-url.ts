/** The `idle_in_transaction_session_timeout` DBOS sets on its connections by default (60 s). */
export const IDLE_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The URL DBOS is given for the durable runs database `url`: the same database, with DBOS's
 * default `idle_in_transaction_session_timeout` as a startup option of every connection
 * (`?options=-c idle_in_transaction_session_timeout=60000`). Without it DBOS 5.3.0 sets the
 * timeout with a `SET` it queues on each new pool connection ahead of the borrower's first query,
 * which pg 8.23 reports as a DeprecationWarning ("Calling client.query() when the client is
 * already executing a query"); given as an option, the server applies it at connect and DBOS
 * skips its `SET`. A URL whose `options` already set the timeout is left as it is.
 */
export function systemDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // pg reports the malformed URL itself
  }
  const options = parsed.searchParams.get("options");
  if (options?.includes("idle_in_transaction_session_timeout")) return url;
  const setting = `-c idle_in_transaction_session_timeout=${IDLE_TRANSACTION_TIMEOUT_MS}`;
  parsed.searchParams.set("options", options === null ? setting : `${options} ${setting}`);
  return parsed.toString();
}
