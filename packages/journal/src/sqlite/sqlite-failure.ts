import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import { JournalError } from "../journal-error";

/** Below this many free bytes on the journal's disk, an I/O failure is taken for a full disk. */
const NEARLY_FULL_BYTES = 256 * 1024;

/**
 * Whether the disk of `file` is (nearly) full. SQLite reports a full disk as SQLITE_FULL only
 * when a write of the database or its WAL comes up short; growing the shared-memory file on a
 * full disk fails as an I/O error (SQLITE_IOERR_SHMSIZE), so an I/O error is checked here.
 */
function diskFull(file: string): boolean {
  try {
    const stats = statfsSync(dirname(file));
    return stats.bavail * stats.bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

/** The SQLite error code of a better-sqlite3 failure (`SQLITE_BUSY`, …), if it has one. */
export function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A SQLite failure as a JournalError naming the file and what to do. `doing` says what failed
 * (`cannot open the journal`, `cannot record the run`).
 */
export function sqliteFailure(location: string, doing: string, error: unknown): JournalError {
  if (error instanceof JournalError) return error;
  const code = sqliteCode(error) ?? "";
  const cause = { cause: error };
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return new JournalError(
      "corrupt",
      location,
      `${doing}: the file is not a Runvil journal or is damaged (${detail(error)}); move it aside to start a new journal, or restore it from a copy`,
      cause,
    );
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new JournalError(
      "locked",
      location,
      `${doing}: another process holds a lock on the journal (${detail(error)}); wait for it to finish, or record elsewhere with --journal FILE (or --no-record)`,
      cause,
    );
  }
  if (
    code === "SQLITE_FULL" ||
    code === "SQLITE_IOERR_WRITE" ||
    code === "SQLITE_IOERR_FSYNC" ||
    ((code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_CANTOPEN")) && diskFull(location))
  ) {
    return new JournalError(
      "full",
      location,
      `${doing}: the disk is full (${detail(error)}); free some space (runvil runs prune --older-than 30d removes old runs) and run again`,
      cause,
    );
  }
  return new JournalError(
    "unavailable",
    location,
    `${doing}: ${detail(error)}${code === "" ? "" : ` (${code})`}; check that the file and its folder can be written, or record elsewhere with --journal FILE (or --no-record)`,
    cause,
  );
}
