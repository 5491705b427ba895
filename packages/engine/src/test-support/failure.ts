import type { RunError } from "@runvil/protocol";
import type { TestRun } from "./run-prompt";

/** The run error of a failed test run; throws when the run did not fail. */
export function failureOf(run: TestRun): RunError {
  if (run.result.outcome !== "failed") {
    throw new Error(`expected a failed run, got ${JSON.stringify(run.result)}`);
  }
  return run.result.error;
}

/** The first line of a run error's message. */
export function headline(error: RunError): string {
  return error.message.split("\n")[0] ?? "";
}
