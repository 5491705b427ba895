import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { CliIo } from "../io";
import { openCliJournal } from "../journal/cli-journal";

/** Options of `runvil runs export`. */
export interface RunsExportOptions {
  /** `--journal FILE|URL`; absent: where `runvil run` records from here. */
  readonly journal?: string;
  /** `--scenario [FILE]`: true for standard output, a path to write (or add) the case there. */
  readonly scenario?: string | true;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `runvil runs export ID --scenario [FILE]`: the recorded run as a scenario case that passes
 * `runvil test` offline (docs/design/record-to-scenario.md), printed, or written to FILE (a new
 * file, or one more case in an existing scenario file). A run the format cannot express is
 * refused with the effect it cannot script, and nothing is written.
 */
export async function runsExportCommand(
  id: string,
  options: RunsExportOptions,
  io: CliIo,
): Promise<number> {
  if (options.scenario === undefined) {
    io.stderr("runvil runs export: say what to export: --scenario [FILE] (a scenario case)\n");
    return 2;
  }
  const opened = await openCliJournal(options.journal);
  if (!opened.ok) {
    io.stderr(
      "missing" in opened
        ? `${opened.missing}: no journal here (runs are recorded by runvil run); name one with --journal FILE\n`
        : `${opened.error}\n`,
    );
    return 1;
  }
  try {
    // `last`: the newest run (runvil run, then runvil runs export last --scenario FILE).
    const newest = id === "last" ? (await opened.journal.listRuns({ limit: 1 }))[0]?.id : id;
    const run = newest === undefined ? undefined : await opened.journal.findRun(newest);
    if (run === undefined) {
      io.stderr(`${opened.shown}: no run ${id} (runvil runs list shows the recorded runs)\n`);
      return 1;
    }
    const file = options.scenario === true ? undefined : resolve(options.scenario);
    const [{ exportScenarioCase }, { addScenarioCase }] = await Promise.all([
      import("../scenario-export/export-scenario"),
      import("@runvil/testkit"),
    ]);
    const caseData = await exportScenarioCase(run, await opened.journal.readEffects(run.id), file);
    const existing =
      file !== undefined && existsSync(file) ? readFileSync(file, "utf8") : undefined;
    const text = addScenarioCase(existing, caseData, file ?? resolve("recorded.scenarios.yaml"));
    if (file === undefined) {
      io.stdout(text);
    } else {
      writeFileSync(file, text);
      io.stdout(
        `${options.scenario}: ${existing === undefined ? "wrote" : "added"} the case "${String(caseData.name)}" (runvil test ${options.scenario} runs it offline)\n`,
      );
    }
    return 0;
  } catch (error) {
    io.stderr(`${messageOf(error)}\n`);
    return 1;
  } finally {
    await opened.journal.close().catch(() => {});
  }
}
