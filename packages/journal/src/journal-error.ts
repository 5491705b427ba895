/** What went wrong with a journal, for callers that react to it. */
export type JournalErrorReason =
  /** The file is not a journal, or its database is damaged. */
  | "corrupt"
  /** The journal was written by a newer Runvil (its schema version is higher). */
  | "newer_schema"
  /** Another process holds a lock on it for longer than the wait. */
  | "locked"
  /** The disk (or the database's quota) is full. */
  | "full"
  /** No run has that id. */
  | "no_such_run"
  /** The run already ended (succeeded or failed): there is nothing to resume. */
  | "ended"
  /** Another live process still records the run: a resume would run it twice. */
  | "running"
  /** A run id prefix names several runs. */
  | "ambiguous_id"
  /** The journal cannot be opened or written for another reason (permissions, a bad URL, …). */
  | "unavailable";

/**
 * A journal failure. The message names the journal (its file or URL) and what to do; the
 * recorded runs are never touched on the way to it.
 */
export class JournalError extends Error {
  readonly reason: JournalErrorReason;
  /** The journal's location (a file path, or a URL without its password). */
  readonly location: string;

  constructor(
    reason: JournalErrorReason,
    location: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${location}: ${message}`, options);
    this.name = "JournalError";
    this.reason = reason;
    this.location = location;
  }
}
