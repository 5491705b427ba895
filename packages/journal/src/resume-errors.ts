import { JournalError } from "./journal-error";

/** The error for a run id with no run. */
export function noSuchRun(location: string, runId: string): JournalError {
  return new JournalError(
    "no_such_run",
    location,
    `no run ${runId} (runvil runs list shows the recorded runs)`,
  );
}

/** The error for a resume of a run that already ended (succeeded or failed). */
export function alreadyEnded(
  location: string,
  runId: string,
  outcome: string,
  endedAt: number,
): JournalError {
  const when = Number.isFinite(endedAt) ? ` at ${new Date(endedAt).toISOString()}` : "";
  return new JournalError(
    "ended",
    location,
    `run ${runId} already ended (${outcome}${when}), so there is nothing to resume; runvil replay ${runId} reproduces it, runvil run starts a new run (the record was left unchanged)`,
  );
}
