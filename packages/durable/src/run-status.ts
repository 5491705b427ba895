import type { WorkflowStatus } from "@dbos-inc/dbos-sdk";
import { runvilVersionOf } from "./names";
import type { ParkedRun } from "./park-sql";

/** Where a durable run is. */
export type DurableRunState =
  /** Waiting on the queue for a worker. */
  | "enqueued"
  /**
   * Taken by a worker (running, waiting on an ask not parked yet, or its worker died and it
   * awaits recovery).
   */
  | "running"
  /** Parked on an operator ask: no worker holds it; an answer puts it back on the queue. */
  | "waiting"
  /** Ended: its result is stored (whatever the run's own outcome). */
  | "finished"
  /** Its workflow failed (a divergence, a version refusal, too many recoveries). */
  | "failed"
  /** Cancelled through DBOS. */
  | "cancelled";

/** A durable run as DBOS keeps it. */
export interface DurableRunStatus {
  readonly runId: string;
  readonly state: DurableRunState;
  /** The worker (DBOS executor id) that took it last. */
  readonly executorId?: string;
  /** The Runvil version that journaled it. */
  readonly runvilVersion?: string;
  /** The prompt's path, when the input was loaded. */
  readonly prompt?: string;
  readonly createdAt: number;
  readonly updatedAt?: number;
  /** How many times DBOS started it again after its worker died. */
  readonly recoveryAttempts?: number;
  /** A failed workflow's message. */
  readonly error?: string;
  /** A parked (`waiting`) run's ask: the effect id an answer goes to. */
  readonly waitingOn?: string;
  /** When a `waiting` run was parked (ms since the epoch). */
  readonly parkedAt?: number;
}

const STATES: Record<string, DurableRunState> = {
  ENQUEUED: "enqueued",
  DELAYED: "enqueued",
  PENDING: "running",
  SUCCESS: "finished",
  ERROR: "failed",
  MAX_RECOVERY_ATTEMPTS_EXCEEDED: "failed",
  CANCELLED: "cancelled",
};

/**
 * A DBOS workflow status as a durable run status; `parked`, the run's parked row, makes a
 * cancelled run `waiting` on its ask.
 */
export function runStatusOf(status: WorkflowStatus, parked?: ParkedRun): DurableRunStatus {
  const input = Array.isArray(status.input)
    ? (status.input[0] as { prompt?: { path?: unknown } } | undefined)
    : undefined;
  const prompt = input?.prompt?.path;
  const version = runvilVersionOf(status.applicationVersion);
  const error = status.error;
  const isParked = parked !== undefined && status.status === "CANCELLED";
  return {
    runId: status.workflowID,
    state: isParked ? "waiting" : (STATES[status.status] ?? "running"),
    createdAt: status.createdAt,
    ...(status.updatedAt === undefined ? {} : { updatedAt: status.updatedAt }),
    ...(status.executorId === undefined ? {} : { executorId: status.executorId }),
    ...(version === undefined ? {} : { runvilVersion: version }),
    ...(typeof prompt === "string" ? { prompt } : {}),
    ...(status.recoveryAttempts === undefined ? {} : { recoveryAttempts: status.recoveryAttempts }),
    ...(error === undefined || error === null
      ? {}
      : { error: error instanceof Error ? error.message : String(error) }),
    ...(isParked ? { waitingOn: parked.ask, parkedAt: parked.parkedAt } : {}),
  };
}
