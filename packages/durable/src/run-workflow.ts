import { DBOS } from "@dbos-inc/dbos-sdk";
import { currentOwnerXid } from "@dbos-inc/dbos-sdk/internal/context";
import { DBOSWorkflowCancelledError } from "@dbos-inc/dbos-sdk/internal/error";
import { encodeValue } from "@runvil/journal";
import type { EffectPort, RunResult } from "@runvil/protocol";
import { ExecutionParking, type ParkingDeps } from "./ask-parking";
import { DurableError } from "./durable-error";
import { type DurableCounts, DurablePort } from "./durable-port";
import { planRecovery, type RecordedStep } from "./recovery-plan";
import { replayPositions } from "./replay-positions";
import { checkRunInput, type DurableRunInput } from "./run-input";
import type { WorkflowSteps } from "./workflow-steps";

/** One execution of a durable run, as the worker's `execute` gets it. */
export interface DurableExecution {
  /** The run's input, as submitted. */
  readonly input: DurableRunInput;
  /**
   * The durable port over `inner` (the run's Harness port): run the Engine on it. Call once per
   * execution.
   */
  wrap(inner: EffectPort): EffectPort;
  /**
   * Aborted when the run diverged from its record or was parked on an ask: pass it as the
   * Engine's `signal`.
   */
  readonly signal: AbortSignal;
  /** How many effects were answered from the record, run live, or asked so far. */
  counts(): DurableCounts;
  /** True when an earlier execution of this run recorded steps (this one is a recovery). */
  readonly recovered: boolean;
}

/** Runs one execution of a durable run: builds the Host's port, wraps it, runs the Engine. */
export type ExecuteRun = (execution: DurableExecution) => Promise<RunResult>;

/** A recv waits this long (DBOS records the deadline): operator answers may take days. */
export const ASK_WAIT_SECONDS = 365 * 24 * 3600;

/** What the run workflow needs from its worker. */
export interface RunWorkflowDeps {
  readonly execute: ExecuteRun;
  readonly runvilVersion: string;
  readonly askTools: ReadonlySet<string>;
  /** The steps DBOS recorded for a workflow, read outside the workflow (never recorded itself). */
  readonly recordedSteps: (runId: string) => Promise<readonly RecordedStep[]>;
  /** The DBOS operations the run takes its positions with (the worker's gated `dbosSteps`). */
  readonly steps: WorkflowSteps;
  /** Parks runs that wait on asks alone (absent: a waiting run keeps its slot). */
  readonly parking?: ParkingDeps;
}

/** The DBOS operations of the current workflow. */
export const dbosSteps: WorkflowSteps = {
  step(name, run) {
    if (DBOS.isInStep()) {
      throw new DurableError("invalid", `effect step ${name} was asked for inside another step`);
    }
    return DBOS.runStep(run, { name, retriesAllowed: false });
  },
  recv: (topic) => DBOS.recv(topic, { timeoutSeconds: ASK_WAIT_SECONDS }),
};

/**
 * The body of the `runvil.run` workflow: checks the input and the version, takes the recorded
 * positions again (a recovery), runs the Engine through `execute` on the durable port, and
 * returns the run result as codec text.
 */
export async function runWorkflow(input: unknown, deps: RunWorkflowDeps): Promise<string> {
  const runId = DBOS.workflowID ?? "";
  const run = checkRunInput(input, `run ${runId}`);
  if (run.runvilVersion !== deps.runvilVersion)
    throw versionMismatch(runId, run.runvilVersion, deps.runvilVersion);
  const stop = new AbortController();
  const ownerXid = DBOS.workflowID === undefined ? undefined : currentOwnerXid(runId);
  const parking =
    deps.parking === undefined || ownerXid === undefined
      ? undefined
      : new ExecutionParking({
          runId,
          ownerXid,
          deps: deps.parking,
          onParked: (reason) => stop.abort(reason),
        });
  const steps = parking?.gate(deps.steps) ?? deps.steps;
  const recorded = await deps.recordedSteps(runId);
  const replayed = replayPositions(runId, planRecovery(runId, recorded), steps);
  await replayed.settled;
  let port: DurablePort | undefined;
  const execution: DurableExecution = {
    input: run,
    signal: stop.signal,
    recovered: recorded.length > 0,
    wrap(inner) {
      if (port !== undefined)
        throw new DurableError("invalid", `run ${runId}: wrap() was called twice`);
      port = new DurablePort({
        runId,
        inner,
        steps,
        replayed,
        askTools: deps.askTools,
        onDivergence: (error) => stop.abort(error),
        ...(parking === undefined ? {} : { activity: parking }),
      });
      return port;
    },
    counts: () => port?.counts() ?? { recorded: 0, live: 0, asks: 0 },
  };
  let result: RunResult;
  try {
    result = await deps.execute(execution);
  } catch (error) {
    if (parking?.parked !== undefined) throw new DBOSWorkflowCancelledError(runId);
    throw error;
  } finally {
    parking?.close();
  }
  // Parked: DBOS holds the run as cancelled (its parked row says waiting) and records nothing of
  // this execution; its own cancellation is how DBOS lets go of it (dbos-executor.js).
  if (parking?.parked !== undefined) throw new DBOSWorkflowCancelledError(runId);
  if (port?.divergence !== undefined) throw port.divergence;
  return encodeValue(result);
}

/** The refusal of a run journaled by another Runvil version, naming both. */
export function versionMismatch(
  runId: string,
  runVersion: string,
  workerVersion: string,
): DurableError {
  return new DurableError(
    "version_mismatch",
    `run ${runId} was journaled by Runvil ${runVersion}; this worker runs Runvil ${workerVersion}: start a worker of Runvil ${runVersion} to finish it`,
  );
}
