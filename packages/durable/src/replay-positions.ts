import { DurableError } from "./durable-error";
import type { PlannedPosition } from "./recovery-plan";
import { askStepName, DBOS_SLEEP, effectStepName, GAP_STEP } from "./step-names";
import type { WorkflowSteps } from "./workflow-steps";

/** An ask taken again on recovery: its marker's recorded request, its (possibly awaited) answer. */
export interface ReplayedAsk {
  readonly request: Promise<unknown>;
  readonly answer: Promise<unknown>;
}

/** The recorded positions of a recovered execution, taken again. */
export interface ReplayedPositions {
  /** Each completed effect's recorded step output, by effect id. */
  readonly effects: Map<string, Promise<unknown>>;
  /** Each ask, by effect id. */
  readonly asks: Map<string, ReplayedAsk>;
  /** Settles when every effect, marker and gap position was taken (not the awaited answers). */
  readonly settled: Promise<void>;
}

/**
 * Takes every planned position again, in order, in one synchronous stretch (so each lands where
 * it was recorded): a completed effect's step (DBOS answers it from the record: its function is
 * never called), an ask's marker and recv, an empty step for a gap, the recorded sleep of an ask
 * whose marker never recorded (a step of DBOS's sleep name: answered from the record, never slept).
 */
export function replayPositions(
  runId: string,
  plan: readonly PlannedPosition[],
  steps: WorkflowSteps,
): ReplayedPositions {
  const effects = new Map<string, Promise<unknown>>();
  const asks = new Map<string, ReplayedAsk>();
  const taken: Promise<unknown>[] = [];
  for (const position of plan) {
    if (position.kind === "effect") {
      const output = steps.step(effectStepName(position.effect), () => vanished(runId, position));
      effects.set(position.effect, output);
      taken.push(output);
    } else if (position.kind === "ask") {
      const request = steps.step(askStepName(position.effect), () => vanished(runId, position));
      const answer = steps.recv(position.effect);
      asks.set(position.effect, { request, answer });
      taken.push(request);
      if (position.answered) taken.push(answer);
    } else if (position.kind === "sleep") {
      taken.push(steps.step(DBOS_SLEEP, () => vanished(runId, position)));
    } else {
      taken.push(steps.step(GAP_STEP, async () => ""));
    }
  }
  // Rejections are read by whoever awaits the position; `settled` reports the first one too.
  for (const promise of [...effects.values(), ...[...asks.values()].map((a) => a.answer)]) {
    promise.catch(() => undefined);
  }
  return { effects, asks, settled: Promise.all(taken).then(() => undefined) };
}

async function vanished(runId: string, position: PlannedPosition): Promise<string> {
  throw new DurableError(
    "invalid",
    `run ${runId}: the step recorded at position ${position.position} was gone when the run was recovered`,
  );
}
