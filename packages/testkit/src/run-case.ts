import type { PluginEntry } from "@runvil/host";
import type { RunBudget, RunEvent } from "@runvil/protocol";
import { executeCase } from "./execute-case";
import { checkExpectations } from "./expectations";
import { type CaseResult, checkedCaseResult, skippedCaseResult } from "./report";
import type { ScenarioCase } from "./scenario-types";

/** Options of {@link runScenarioCase}. */
export interface RunCaseOptions {
  /** The longest a case may run before it is cancelled and failed (default 10,000 ms). */
  timeoutMs?: number;
  /**
   * Extra plugins for every case's Host, such as the plugins of a `runvil.config.json` found
   * beside the scenario file (what `runvil test` passes), so a scenario can test your own
   * Packs. The case stays in charge of the official Packs, the input broker, the search
   * provider and the models: a plugin's offers of those are ignored.
   */
  plugins?: readonly PluginEntry[];
  /**
   * The budget every case's run is held to besides its frontmatter's, the tighter winning: the
   * `budget` of the `runvil.config.json` found beside the scenario file (what `runvil test`
   * passes), so a case runs under the limits `runvil run` would apply (docs/design/budgets.md).
   */
  budget?: RunBudget;
  /** Called with each run event as it is emitted: progress, tests. */
  onEvent?: (event: RunEvent) => void;
}

/**
 * Runs one scenario case on its scenario Host (official Packs with the case's fixture web,
 * fixture Packs, scripted operator, your `plugins`) through the parser, prepare and the
 * Engine, and checks its expectations. Never throws: a case the runner cannot run (it needs
 * scripted model replies, which the runner does not provide yet) fails saying what it needs; a case whose scripted operator or models ran out fails with
 * `the scenario scripts no operator answer for ask {n}` / `... no model reply for round {n}`
 * even when its expectations hold; a case that runs past the timeout is cancelled and fails
 * saying so.
 */
export async function runScenarioCase(
  file: string,
  scenarioCase: ScenarioCase,
  options: RunCaseOptions = {},
): Promise<CaseResult> {
  if (scenarioCase.skip !== undefined) return skippedCaseResult(file, scenarioCase);
  const run = await executeCase(scenarioCase, { ...options, file });
  const mismatches =
    run.record === undefined ? [] : checkExpectations(scenarioCase.expect, run.record);
  return checkedCaseResult(file, scenarioCase, mismatches, run.failure);
}
