import type { Journal, RunSummary } from "@runvil/journal";
import type { CliIo } from "../io";
import { type CliJournal, openCliJournal } from "../journal/cli-journal";
import {
  formatInstant,
  formatTimeline,
  recordedByJson,
  runDuration,
  runTimeline,
} from "../journal/run-timeline";
import { losslessJson } from "../lossless-json";

/** Options every `runvil runs` command takes. */
export interface RunsOptions {
  /** `--journal FILE|URL`; absent: where `runvil run` records from here. */
  readonly journal?: string;
  /** `--json`. */
  readonly json: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens the journal and runs `work` on it; prints the journal's errors and closes it. A missing
 * journal file is `onMissing`'s to answer.
 */
async function withJournal(
  options: RunsOptions,
  io: CliIo,
  onMissing: (shown: string) => number,
  work: (journal: Journal, shown: string) => Promise<number>,
): Promise<number> {
  const opened: CliJournal = await openCliJournal(options.journal);
  if (!opened.ok) {
    if ("missing" in opened) return onMissing(opened.missing);
    io.stderr(`${opened.error}\n`);
    return 1;
  }
  try {
    return await work(opened.journal, opened.shown);
  } catch (error) {
    io.stderr(`${messageOf(error)}\n`);
    return 1;
  } finally {
    await opened.journal.close().catch(() => {});
  }
}

function noJournal(io: CliIo, shown: string): number {
  io.stderr(
    `${shown}: no journal here (runs are recorded by runvil run); name one with --journal FILE\n`,
  );
  return 1;
}

const COLUMNS = [
  "ID",
  "PROMPT",
  "STARTED",
  "DURATION",
  "OUTCOME",
  "RESUMES",
  "ROUNDS",
  "TOOLS",
  "TOKENS",
];

function listRow(run: RunSummary): string[] {
  return [
    run.id,
    run.promptPath,
    formatInstant(run.startedAt),
    runDuration(run),
    run.errorKind === undefined ? run.outcome : `${run.outcome} (${run.errorKind})`,
    String(run.resumes),
    String(run.modelRounds),
    String(run.toolCalls),
    String(run.inputTokens + run.outputTokens),
  ];
}

function table(rows: readonly string[][]): string {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  return rows
    .map((row) =>
      row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "),
    )
    .map((line) => `${line.trimEnd()}\n`)
    .join("");
}

function summaryJson(run: RunSummary): Record<string, unknown> {
  return {
    id: run.id,
    prompt: run.promptPath,
    promptHash: run.promptHash,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: run.endedAt === undefined ? null : new Date(run.endedAt).toISOString(),
    durationMs: run.endedAt === undefined ? null : run.endedAt - run.startedAt,
    outcome: run.outcome,
    errorKind: run.errorKind ?? null,
    resumes: run.resumes,
    effects: run.effects,
    modelRounds: run.modelRounds,
    toolCalls: run.toolCalls,
    inputTokens: run.inputTokens,
    outputTokens: run.outputTokens,
    events: run.events,
  };
}

/** `runvil runs list`: the recorded runs, newest first. */
export function runsListCommand(
  options: RunsOptions & { limit?: number },
  io: CliIo,
): Promise<number> {
  return withJournal(
    options,
    io,
    (shown) => {
      if (options.json) io.stdout("[]\n");
      else io.stdout(`no runs recorded (no journal at ${shown})\n`);
      return 0;
    },
    async (journal, shown) => {
      const runs = await journal.listRuns(
        options.limit === undefined ? {} : { limit: options.limit },
      );
      if (options.json) {
        io.stdout(`${losslessJson(runs.map(summaryJson))}\n`);
      } else if (runs.length === 0) {
        io.stdout(`no runs recorded in ${shown}\n`);
      } else {
        io.stdout(table([COLUMNS, ...runs.map(listRow)]));
      }
      return 0;
    },
  );
}

async function foundRun(journal: Journal, shown: string, id: string, io: CliIo) {
  const run = await journal.findRun(id);
  if (run === undefined) {
    io.stderr(`${shown}: no run ${id} (runvil runs list shows the recorded runs)\n`);
  }
  return run;
}

/** `runvil runs show ID`: a run's timeline (sections, effects, model rounds, the ending). */
export function runsShowCommand(id: string, options: RunsOptions, io: CliIo): Promise<number> {
  return withJournal(
    options,
    io,
    (shown) => noJournal(io, shown),
    async (journal, shown) => {
      const run = await foundRun(journal, shown, id, io);
      if (run === undefined) return 1;
      const [effects, events] = await Promise.all([
        journal.readEffects(run.id),
        journal.readEvents(run.id),
      ]);
      const timeline = runTimeline(run, effects, events);
      if (options.json) {
        io.stdout(
          `${losslessJson({
            ...summaryJson(run),
            resumedAt: run.resumedAt.map((at) => new Date(at).toISOString()),
            recordedBy: recordedByJson(run),
            args: run.inputs.args,
            seed: run.inputs.seed,
            bindings: run.inputs.bindings,
            versions: run.inputs.versions,
            toolCallKinds: {
              catalog: timeline.toolCalls.catalog,
              local: timeline.toolCalls.local,
              taskBuiltins: timeline.toolCalls.taskBuiltins,
            },
            entries: timeline.entries,
            ending: timeline.ending,
          })}\n`,
        );
      } else {
        io.stdout(formatTimeline(run, timeline));
      }
      return 0;
    },
  );
}

/** `runvil runs events ID`: the run's events as JSON Lines, exactly as they were emitted. */
export function runsEventsCommand(id: string, options: RunsOptions, io: CliIo): Promise<number> {
  return withJournal(
    options,
    io,
    (shown) => noJournal(io, shown),
    async (journal, shown) => {
      const run = await foundRun(journal, shown, id, io);
      if (run === undefined) return 1;
      for (const event of await journal.readEvents(run.id)) io.stdout(event.line);
      return 0;
    },
  );
}

const UNITS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** `30d` as milliseconds; undefined when it is not a whole number and one of s, m, h, d, w. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d{1,9})([smhdw])$/.exec(text);
  if (match === null) return undefined;
  return Number(match[1]) * (UNITS[match[2] as string] ?? 0);
}

/** `runvil runs prune --older-than AGE`: deletes the runs that started longer ago than AGE. */
export function runsPruneCommand(
  olderThan: string,
  options: RunsOptions,
  io: CliIo,
): Promise<number> {
  const age = parseAge(olderThan);
  if (age === undefined) {
    io.stderr(
      `--older-than must be a whole number and a unit (s, m, h, d, w), such as 30d; got ${olderThan}\n`,
    );
    return Promise.resolve(2);
  }
  return withJournal(
    options,
    io,
    (shown) => {
      if (options.json) io.stdout(`${losslessJson({ pruned: 0 })}\n`);
      else io.stdout(`nothing to prune (no journal at ${shown})\n`);
      return 0;
    },
    async (journal, shown) => {
      const before = Date.now() - age;
      const pruned = await journal.pruneRuns(before);
      if (options.json)
        io.stdout(`${losslessJson({ pruned, before: new Date(before).toISOString() })}\n`);
      else
        io.stdout(
          `pruned ${pruned} run${pruned === 1 ? "" : "s"} started before ${formatInstant(before)} from ${shown}\n`,
        );
      return 0;
    },
  );
}
