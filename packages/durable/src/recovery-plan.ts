import { DurableError } from "./durable-error";
import { ASK_STEP_PREFIX, DBOS_RECV, DBOS_SLEEP, EFFECT_STEP_PREFIX, GAP_STEP } from "./step-names";

/** One step DBOS recorded for a workflow (the fields of its StepInfo this package reads). */
export interface RecordedStep {
  readonly functionID: number;
  readonly name: string;
  readonly output: unknown;
}

/**
 * What a recovery does at each recorded position, in position order (docs/design/durable.md
 * "Concurrent chains"): DBOS matches steps by position, so a recovered execution first takes
 * every recorded position again, in order and synchronously, before the Engine starts; the
 * Engine's effects are then answered by effect id.
 */
export type PlannedPosition =
  /** A completed effect: its step is taken again (DBOS answers it from the record). */
  | {
      readonly kind: "effect";
      readonly position: number;
      readonly effect: string;
      readonly output: unknown;
    }
  /**
   * An ask: its marker at `position`, its DBOS.recv at the next two (the message, the timeout's
   * sleep). `answered`: the recv completed, `answer` is its message; else the recv is waited on
   * again and hands its answer to the ask when the Engine asks it again.
   */
  | {
      readonly kind: "ask";
      readonly position: number;
      readonly effect: string;
      readonly answered: boolean;
      readonly answer: unknown;
    }
  /**
   * The timeout sleep of a recv whose ask marker was never recorded: DBOS records the sleep as
   * the recv starts, and that insert can commit before the marker's step (the two race; the
   * process died, or the record was listed, in between). Taken again as a step of DBOS's sleep
   * name (answered from the record, never slept); the two positions before it are gaps, and the
   * Engine's ask, having no marker, is asked anew after the recorded positions.
   */
  | { readonly kind: "sleep"; readonly position: number }
  /** A position whose step never completed (it was in flight): filled with an empty step. */
  | { readonly kind: "gap"; readonly position: number };

/**
 * Plans the positions of a recovered execution from the steps DBOS recorded. Positions are
 * 0..(highest recorded); every one is an effect, an ask (three positions), a gap, or the sleep of
 * an ask whose marker never recorded (after two gaps). A recorded step of any other name is not
 * this package's, and a DurableError `invalid` names it.
 * `live`: the record of a run still running (read by a client), where an ask's recv may be
 * recorded before its marker: such a position is read as a gap.
 */
export function planRecovery(
  runId: string,
  steps: readonly RecordedStep[],
  options: { readonly live?: boolean } = {},
): PlannedPosition[] {
  const byPosition = new Map<number, RecordedStep>();
  for (const step of steps) byPosition.set(step.functionID, step);
  const highest = steps.reduce((max, step) => Math.max(max, step.functionID), -1);
  const plan: PlannedPosition[] = [];
  let position = 0;
  while (position <= highest) {
    const step = byPosition.get(position);
    if (step === undefined || step.name === GAP_STEP) {
      plan.push({ kind: "gap", position });
      position += 1;
    } else if (step.name.startsWith(EFFECT_STEP_PREFIX)) {
      plan.push({
        kind: "effect",
        position,
        effect: step.name.slice(EFFECT_STEP_PREFIX.length),
        output: step.output,
      });
      position += 1;
    } else if (step.name.startsWith(ASK_STEP_PREFIX)) {
      const recv = byPosition.get(position + 1);
      const sleep = byPosition.get(position + 2);
      if (recv !== undefined && recv.name !== DBOS_RECV) unexpected(runId, recv, DBOS_RECV);
      if (sleep !== undefined && sleep.name !== DBOS_SLEEP) unexpected(runId, sleep, DBOS_SLEEP);
      plan.push({
        kind: "ask",
        position,
        effect: step.name.slice(ASK_STEP_PREFIX.length),
        answered: recv !== undefined,
        answer: recv?.output,
      });
      position += 3;
    } else if (options.live === true && (step.name === DBOS_RECV || step.name === DBOS_SLEEP)) {
      // A live run's ask whose recv recorded before its marker step was recorded (the two
      // start in one synchronous stretch): not waiting yet.
      plan.push({ kind: "gap", position });
      position += 1;
    } else if (step.name === DBOS_SLEEP && isGap(byPosition, position - 1, position - 2)) {
      plan.push({ kind: "sleep", position });
      position += 1;
    } else {
      unexpected(runId, step, "a Runvil effect, ask or gap step");
    }
  }
  return plan;
}

/** True when every one of `positions` is at least 0 and holds no step or a gap step. */
function isGap(byPosition: ReadonlyMap<number, RecordedStep>, ...positions: number[]): boolean {
  return positions.every((p) => p >= 0 && (byPosition.get(p)?.name ?? GAP_STEP) === GAP_STEP);
}

function unexpected(runId: string, step: RecordedStep, wanted: string): never {
  throw new DurableError(
    "invalid",
    `run ${runId}: the step recorded at position ${step.functionID} is ${JSON.stringify(step.name)}, where ${wanted} belongs; this run was not recorded by @runvil/durable`,
  );
}
