import { errorDetail as detail, errorCode, isUnreachable } from "@runvil/pg-kit";
import { JournalError } from "../journal-error";

/** A PostgreSQL failure as a JournalError naming the database and what to do. */
export function pgFailure(location: string, doing: string, error: unknown): JournalError {
  if (error instanceof JournalError) return error;
  const code = errorCode(error);
  const cause = { cause: error };
  if (code === "53100" || code === "53000") {
    return new JournalError(
      "full",
      location,
      `${doing}: the database server is out of disk space (${detail(error)}); free space on the server, or prune old runs (runvil runs prune --older-than 30d)`,
      cause,
    );
  }
  if (code === "55P03" || code === "40P01" || code === "57014") {
    return new JournalError(
      "locked",
      location,
      `${doing}: the journal's tables are locked by another session (${detail(error)}); wait for it to finish, or record elsewhere with --journal`,
      cause,
    );
  }
  if (code === "XX001" || code === "XX002") {
    return new JournalError(
      "corrupt",
      location,
      `${doing}: the database reports damaged data (${detail(error)}); restore it from a backup`,
      cause,
    );
  }
  if (isUnreachable(error)) {
    return new JournalError(
      "unavailable",
      location,
      `${doing}: cannot reach the PostgreSQL server (${detail(error)}); start it or check the URL`,
      cause,
    );
  }
  return new JournalError(
    "unavailable",
    location,
    `${doing}: ${detail(error)}${code === "" ? "" : ` (${code})`}; check the URL, the user's rights and the server`,
    cause,
  );
}
