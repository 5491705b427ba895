import type { Journal } from "./journal";
import { openPgJournal, type PgJournalOptions } from "./pg/pg-journal";
import { openSqliteJournal, type SqliteJournalOptions } from "./sqlite/sqlite-journal";

/** Options of {@link openJournal}: the backend's own. */
export interface OpenJournalOptions {
  readonly sqlite?: SqliteJournalOptions;
  readonly pg?: PgJournalOptions;
}

/** Whether a journal location is a PostgreSQL URL (`postgres://…`, `postgresql://…`). */
export function isPgUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens the journal at `location`: a PostgreSQL URL, or else the path of a SQLite file
 * (created with its folder when absent). The backend's client is loaded only now.
 */
export function openJournal(location: string, options: OpenJournalOptions = {}): Promise<Journal> {
  if (isPgUrl(location)) return openPgJournal(location, options.pg);
  try {
    return Promise.resolve(openSqliteJournal(location, options.sqlite));
  } catch (error) {
    return Promise.reject(error);
  }
}
