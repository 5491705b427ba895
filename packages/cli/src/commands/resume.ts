import { existsSync, readFileSync } from "node:fs";
import { promptHash, type RecordedRun } from "@runvil/journal";
import type { CliIo } from "../io";
import { openCliJournal } from "../journal/cli-journal";
import type { CliHostSnapshot } from "../journal/record-run";
import { type RunCommandOptions, runCommand } from "./run";

/** Options of `runvil resume`: those of `runvil run` that make sense for a resume. */
export interface ResumeCommandOptions
  extends Pick<
    RunCommandOptions,
    "store" | "events" | "config" | "input" | "model" | "json" | "stopDeadline" | "cost"
  > {
  /** `--journal FILE|URL`; absent: where `runvil run` records from here. */
  readonly journal?: string;
  /** `--force`: take over a run that a process on another host records. */
  readonly force?: boolean;
}

function snapshotOf(run: RecordedRun): CliHostSnapshot | undefined {
  const host = run.inputs.host as Partial<CliHostSnapshot> | null;
  return host !== null && typeof host === "object" && host.catalog !== undefined
    ? (host as CliHostSnapshot)
    : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `runvil resume ID` (docs/design/resume.md): continues a recorded run that was killed, or that
 * a cancel or a stop ended, from its journal: every journaled effect is answered from the
 * record (no tool call or model round that finished runs again), the first unanswered one and
 * every one after run live, and the run is recorded on into the same record. Exit codes as
 * `runvil run`, and 1 for a run that cannot be resumed or that diverges from its record.
 */
export async function resumeCommand(
  id: string,
  options: ResumeCommandOptions,
  io: CliIo,
): Promise<number> {
  const opened = await openCliJournal(options.journal);
  if (!opened.ok) {
    if ("missing" in opened) {
      io.stderr(
        `${opened.missing}: no journal here (runs are recorded by runvil run); name one with --journal FILE\n`,
      );
    } else {
      io.stderr(`${opened.error}\n`);
    }
    return 1;
  }
  const { journal, shown, location } = opened;
  let run: RecordedRun | undefined;
  try {
    run = await journal.findRun(id);
  } catch (error) {
    io.stderr(`${messageOf(error)}\n`);
    return 1;
  } finally {
    await journal.close().catch(() => {});
  }
  if (run === undefined) {
    io.stderr(`${shown}: no run ${id} (runvil runs list shows the recorded runs)\n`);
    return 1;
  }
  if (run.outcome === "succeeded" || run.outcome === "failed") {
    const when = run.endedAt === undefined ? "" : ` at ${new Date(run.endedAt).toISOString()}`;
    io.stderr(
      `${shown}: run ${run.id} already ended (${run.outcome}${when}), so there is nothing to resume; runvil replay ${run.id} reproduces it, runvil run starts a new run (the record was left unchanged)\n`,
    );
    return 1;
  }
  const snapshot = snapshotOf(run);
  if (snapshot === undefined) {
    io.stderr(
      `${shown}: run ${run.id} has no Host snapshot (it was not recorded by runvil run), so it cannot be resumed\n`,
    );
    return 1;
  }
  // The prompt file as it is now when it is still there (a changed prompt shows where it
  // diverges), else the recorded text.
  let file = run.inputs.promptPath;
  let bytes: Uint8Array | undefined = run.inputs.promptBytes;
  if (existsSync(snapshot.promptFile)) {
    file = snapshot.promptFile;
    const current = new Uint8Array(readFileSync(snapshot.promptFile));
    if (promptHash(current) !== run.promptHash && !options.json) {
      io.stderr(
        `${run.id}: note: the prompt file ${run.promptPath} changed since the recording; resuming the file as it is now\n`,
      );
    }
    bytes = current;
  }
  const store = options.store ?? snapshot.store ?? undefined;
  const config = options.config ?? snapshot.configFile ?? undefined;
  return runCommand(
    file,
    {
      args: run.inputs.args,
      seed: run.inputs.seed,
      json: options.json,
      ...(store === undefined ? {} : { store }),
      ...(config === undefined ? {} : { config }),
      ...(options.events === undefined ? {} : { events: options.events }),
      // A run that was lent an operator is lent one again (stdin: the terminal, or a pipe).
      ...(options.input === undefined
        ? snapshot.operator
          ? { input: "stdin" }
          : {}
        : { input: options.input }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.stopDeadline === undefined ? {} : { stopDeadline: options.stopDeadline }),
      ...(options.cost === undefined ? {} : { cost: options.cost }),
    },
    io,
    { runId: run.id, journal: location, bytes, ...(options.force === true ? { force: true } : {}) },
  );
}
