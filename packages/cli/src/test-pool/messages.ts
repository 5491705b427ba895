import type { CaseResult, ScenarioCase } from "@runvil/testkit";

/** One case for a case thread to run (docs/design/cli.md "runvil test: case threads"). */
export interface CaseJob {
  /** The scenario file, as collected (the runvil.config.json lookup starts beside it). */
  readonly file: string;
  /** The case, as loaded (plain data). */
  readonly scenarioCase: ScenarioCase;
}

/** A message from the main thread to a case thread. */
export type ToCaseThread = {
  readonly type: "run";
  /** The job's number, echoed back with its result. */
  readonly id: number;
  readonly job: CaseJob;
  /** The case timeout (`--timeout`). */
  readonly timeoutMs: number;
};

/** A message from a case thread to the main thread. */
export type FromCaseThread =
  /** The thread loaded the Engine and the parser and takes cases now. */
  | { readonly type: "ready" }
  /** Case `id` starts now (its deadline counts from here). */
  | { readonly type: "started"; readonly id: number }
  /** How case `id` ended. */
  | { readonly type: "result"; readonly id: number; readonly result: CaseResult };
