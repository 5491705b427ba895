import { type CaseRun, executeCase, type ToolError } from "./execute-case";
import type { RunRecord } from "./run-record";
import { type RunScenarioOptions, scenarioCaseOf } from "./scenario-input";

/** What {@link runScenario} resolves with: the run record, plus tools that threw. */
export interface ScenarioRunResult extends RunRecord {
  /**
   * Every error the run kept from the model (the ToolDispatcher's `onToolError`): what a tool
   * threw that is not a ToolFailure (the run saw `{wire}: the tool failed`), a ToolFailure's
   * hidden `cause`, an invalid parameter schema. Useful when debugging your own Pack.
   */
  toolErrors: ToolError[];
}

/**
 * A runScenario call that could not give a run record to check: a scripted party ran out (the
 * record is attached), an input the runner does not provide, a run past the timeout, a crash.
 */
export class ScenarioRunError extends Error {
  override readonly name = "ScenarioRunError";
  /** What the run produced, when it ran to the end. */
  readonly record: RunRecord | undefined;

  constructor(message: string, record?: RunRecord) {
    super(message);
    this.record = record;
  }
}

/**
 * Runs a prompt the way a scenario case runs, for a test framework such as vitest:
 *
 * ```ts
 * const r = await runScenario({ prompt, operator: ["hi"] });
 * expect(r.result).toBe("hi");
 * ```
 *
 * Resolves with the run record (outcome, result, error, checkpoints, events, store, var,
 * model requests, nonce). A prompt that fails to parse resolves with `parseError`; one the
 * Host refuses resolves failed with error kind `RequirementsUnmet` and the notice. Throws a
 * ScenarioFormatError for inputs that break the scenario format (key paths are written as in
 * a scenario file, such as `host.fixture_tools[0].returns`), and rejects with a
 * {@link ScenarioRunError} when a scripted party ran out, the run outlived `timeoutMs`, or the
 * runner failed.
 */
export async function runScenario(options: RunScenarioOptions): Promise<ScenarioRunResult> {
  const scenarioCase = scenarioCaseOf(options);
  const run: CaseRun = await executeCase(scenarioCase, {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
  });
  if (run.failure !== undefined) throw new ScenarioRunError(run.failure, run.record);
  if (run.record === undefined) throw new ScenarioRunError("the run produced no record");
  return { ...run.record, toolErrors: run.toolErrors };
}
