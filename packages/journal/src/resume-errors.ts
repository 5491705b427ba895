import { JournalError } from "./journal-error";
import type { RunOwner } from "./records";
import { currentOwner, ownerOf, ownerState } from "./run-owner";

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

/** The error for a resume of a run whose recording process still runs (or may, elsewhere). */
export function stillRecording(
  location: string,
  runId: string,
  owner: RunOwner,
  state: "alive" | "elsewhere",
): JournalError {
  const by = `process ${owner.pid} on ${owner.host}`;
  return new JournalError(
    "running",
    location,
    state === "alive"
      ? `run ${runId} is still being recorded by ${by}, so it was not resumed (it would run twice); wait for it to end, or stop it (kill -TERM ${owner.pid}) and resume it then (the record was left unchanged)`
      : `run ${runId} is being recorded by ${by}, and ${currentOwner().host} cannot tell whether that process still runs, so it was not resumed; resume it on ${owner.host}, or pass --force once you know that process ended (the record was left unchanged)`,
  );
}

/** What a resume checks in a run's row. */
export interface ResumableRow {
  readonly outcome: string | null;
  readonly ended_at: number | string | null;
  readonly owner: string | null;
}

/**
 * Throws the JournalError a resume of this run meets, if any: no run, a run that ended
 * (succeeded or failed), a run another live process records (docs/design/resume.md "A run
 * still recording"); `force` takes over a run recorded on another host.
 */
export function checkResumable(
  location: string,
  runId: string,
  row: ResumableRow | undefined,
  force = false,
): void {
  if (row === undefined) throw noSuchRun(location, runId);
  if (row.outcome !== null && row.outcome !== "cancelled") {
    throw alreadyEnded(location, runId, row.outcome, Number(row.ended_at));
  }
  const owner = ownerOf(row.owner);
  if (owner === undefined) return;
  const state = ownerState(owner);
  if (state === "alive" || (state === "elsewhere" && !force)) {
    throw stillRecording(location, runId, owner, state);
  }
}
