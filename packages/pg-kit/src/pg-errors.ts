/** The error code of a pg or Node error (`ECONNREFUSED`, a SQLSTATE such as `57P01`), or "". */
export function errorCode(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorCode(error.errors[0]);
  if (typeof error !== "object" || error === null || !("code" in error)) return "";
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : "";
}

/** The message of `error` (the first of an AggregateError). */
export function errorDetail(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    return errorDetail(error.errors[0]);
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether `error` says the server could not be reached at all (refused, unknown host, timed out,
 * or every address of the host refused: Node's AggregateError), so that a message says to start
 * the server or check the URL rather than the user's rights.
 */
export function isUnreachable(error: unknown): boolean {
  const code = errorCode(error);
  return (
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "ETIMEDOUT" ||
    error instanceof AggregateError
  );
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  // admin_shutdown, crash_shutdown, cannot_connect_now (the server is starting or stopping)
  "57P01",
  "57P02",
  "57P03",
]);

/**
 * Whether `error` is a lost or refused connection (the server is down, restarting or
 * unreachable), as opposed to a refusal of the statement: the operation may be tried again
 * once the server is back.
 */
export function isConnectionLoss(error: unknown): boolean {
  const code = errorCode(error);
  if (CONNECTION_CODES.has(code) || code.startsWith("08")) return true;
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed/i.test(
    message,
  );
}
