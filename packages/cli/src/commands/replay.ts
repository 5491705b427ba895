import { statSync } from "node:fs";
import type { Divergence, Journal, RecordedRun } from "@runvil/journal";
import type { CliIo } from "../io";
import { openCliJournal } from "../journal/cli-journal";
import { losslessJson } from "../lossless-json";
import type { ReplayReport } from "../replay/replay-run";

/** Options of `runvil replay`. */
export interface ReplayOptions {
  /** `--journal FILE|URL`; absent: where `runvil run` records from here (or from a folder given). */
  readonly journal?: string;
  /** `--all`: every run of the journal. */
  readonly all: boolean;
  /** `--recorded`: replay the recorded prompt text even when the file still exists. */
  readonly recorded: boolean;
  readonly json: boolean;
}

const SHOWN_REQUEST = 400;

/** A request text for the report, cut to a readable length. */
function shownText(text: string): string {
  if (text.length <= SHOWN_REQUEST) return text;
  return `${text.slice(0, SHOWN_REQUEST)}… (${text.length - SHOWN_REQUEST} more characters)`;
}

function placeText(divergence: Divergence, lines?: { first: number; last: number }): string {
  const place = divergence.place;
  const at =
    lines === undefined
      ? ""
      : lines.first === lines.last
        ? ` at line ${lines.first}`
        : ` at lines ${lines.first}-${lines.last}`;
  const block = place.block === undefined ? "" : `, block ${place.block}${at}`;
  return `in section "${place.section}"${block} (entry ${place.entry}, chain ${place.chain})`;
}

/** The text of a divergence, the way durable-execution engines report non-determinism. */
export function formatDivergence(
  id: string,
  divergence: Divergence,
  lines?: { first: number; last: number },
): string {
  switch (divergence.kind) {
    case "changed_request":
      return [
        `${id}: diverged at effect ${divergence.effect} ${placeText(divergence, lines)}: the run asks for another ${divergence.replayed.kind === divergence.recorded.kind ? `${divergence.replayed.kind} request` : "kind of effect"} than the recording`,
        `  recorded: ${divergence.recorded.kind} ${shownText(divergence.recorded.request)}`,
        `  now:      ${divergence.replayed.kind} ${shownText(divergence.replayed.request)}`,
      ].join("\n");
    case "unrecorded_effect":
      return [
        `${id}: diverged at effect ${divergence.effect} ${placeText(divergence, lines)}: the recorded run never made this effect`,
        `  now:      ${divergence.replayed.kind} ${shownText(divergence.replayed.request)}`,
      ].join("\n");
    case "missing_effect":
      return [
        `${id}: diverged at effect ${divergence.effect} ${placeText(divergence, lines)}: the recorded run made this effect, the replay never asked for it`,
        `  recorded: ${divergence.recorded.kind} ${shownText(divergence.recorded.request)}`,
      ].join("\n");
    case "changed_event":
      return [
        `${id}: diverged at event ${divergence.index} of chain ${divergence.place.chain} ${placeText(divergence, lines)}: the events differ`,
        `  recorded: ${divergence.recorded === null ? "(no more events)" : shownText(divergence.recorded.trimEnd())}`,
        `  now:      ${divergence.replayed === null ? "(no more events)" : shownText(divergence.replayed.trimEnd())}`,
      ].join("\n");
  }
}

function reportText(report: ReplayReport): string {
  const id = report.run.id;
  const note = report.note === undefined ? "" : `${id}: note: ${report.note}\n`;
  const verdict = report.verdict;
  switch (verdict.kind) {
    case "reproduced":
      return `${note}${id}: reproduced (${verdict.effects} effects answered by the journal, ${verdict.eventCount} events ${verdict.events === "identical" ? "identical" : "identical per chain"}, the same result)\n`;
    case "diverged":
      return `${note}${formatDivergence(id, verdict.divergence, verdict.lines)}\n`;
    case "different_result":
      return `${note}${id}: every effect and event matched, but the result differs\n  recorded: ${shownText(verdict.recorded)}\n  now:      ${shownText(verdict.replayed)}\n`;
    case "cannot_replay":
      return `${note}${id}: cannot replay: ${verdict.reason}\n`;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `runvil replay [ID…|FOLDER]`: replays recorded runs with the journal answering every effect
 * (nothing live) and reports, per run, that it was reproduced or where it first diverged. A
 * FOLDER (or `--all`) replays every run of its journal: a regression suite kept as recordings.
 * Exit 0 when every run was reproduced, 1 otherwise.
 */
export async function replayCommand(
  targets: readonly string[],
  options: ReplayOptions,
  io: CliIo,
): Promise<number> {
  const folders = targets.filter(isFolder);
  const ids = targets.filter((target) => !isFolder(target));
  if (folders.length > 1 || (folders.length === 1 && ids.length > 0)) {
    io.stderr("runvil replay takes run ids, or one folder whose journal to replay\n");
    return 2;
  }
  if (ids.length === 0 && folders.length === 0 && !options.all) {
    io.stderr("runvil replay needs a run id, a folder or --all\n");
    return 2;
  }
  const opened = await openCliJournal(options.journal, folders[0]);
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
  const { journal, shown } = opened;
  try {
    const runs = await runsToReplay(journal, shown, ids, io);
    if (runs === undefined) return 1;
    const { replayRun } = await import("../replay/replay-run");
    const reports: ReplayReport[] = [];
    for (const run of runs) {
      const report = await replayRun(journal, run, { recorded: options.recorded });
      reports.push(report);
      if (!options.json) io.stdout(reportText(report));
    }
    const reproduced = reports.filter((r) => r.verdict.kind === "reproduced").length;
    if (options.json) {
      io.stdout(
        `${losslessJson(reports.map((r) => ({ run: r.run.id, prompt: r.run.promptPath, ...(r.note === undefined ? {} : { note: r.note }), ...r.verdict })))}\n`,
      );
    } else if (reports.length !== 1) {
      io.stdout(`${reproduced} of ${reports.length} runs reproduced\n`);
    }
    return reproduced === reports.length ? 0 : 1;
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await journal.close().catch(() => {});
  }
}

async function runsToReplay(
  journal: Journal,
  shown: string,
  ids: readonly string[],
  io: CliIo,
): Promise<RecordedRun[] | undefined> {
  const wanted = ids.length === 0 ? (await journal.listRuns()).map((run) => run.id).reverse() : ids;
  const runs: RecordedRun[] = [];
  for (const id of wanted) {
    const run = await journal.findRun(id);
    if (run === undefined) {
      io.stderr(`${shown}: no run ${id} (runvil runs list shows the recorded runs)\n`);
      return undefined;
    }
    runs.push(run);
  }
  return runs;
}
