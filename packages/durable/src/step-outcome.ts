import { encodeValue, failureError, type RecordedFailure, recordFailure } from "@runvil/journal";
import { DurableError } from "./durable-error";

/**
 * What an effect's step records: the request as text (to detect a changed prompt on recovery)
 * and the output (codec text of `@runvil/journal`) or the failure. A step never throws: the
 * effect's failure is its recorded outcome, so a recovery rejects with the same error.
 */
export type StepOutcome =
  | { readonly request: string; readonly output: string }
  | { readonly request: string; readonly failure: RecordedFailure };

/** Runs `perform` and captures its outcome as a step's output text. */
export async function captureOutcome(
  request: string,
  perform: () => Promise<unknown>,
): Promise<string> {
  let outcome: StepOutcome;
  try {
    outcome = { request, output: encodeValue(await perform()) };
  } catch (error) {
    outcome = { request, failure: recordFailure(error) };
  }
  return JSON.stringify(outcome);
}

/** Reads a step's output text back; a DurableError `invalid` names the step when it is not one. */
export function readOutcome(text: unknown, step: string): StepOutcome {
  if (typeof text === "string") {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      if (
        typeof value.request === "string" &&
        (typeof value.output === "string" || typeof value.failure === "object")
      ) {
        return value as unknown as StepOutcome;
      }
    } catch {
      // reported below
    }
  }
  throw new DurableError(
    "invalid",
    `step ${step}: the recorded output is not a Runvil step outcome`,
  );
}

/** The failure of an outcome as the error the effect rejects with, or undefined for an output. */
export function outcomeError(outcome: StepOutcome): Error | undefined {
  return "failure" in outcome ? failureError(outcome.failure) : undefined;
}
