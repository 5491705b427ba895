import { DBOSClient, type WorkflowStatus } from "@dbos-inc/dbos-sdk";
import { decodeValue } from "@runvil/journal";
import type { RunResult } from "@runvil/protocol";
import type { JsonObject } from "@runvil/sdk";
import type * as Pg from "pg";
import { DurableError } from "./durable-error";
import {
  applicationVersion,
  DURABLE_APPLICATION,
  DURABLE_QUEUE,
  DURABLE_WORKFLOW,
  RUNVIL_VERSION,
} from "./names";
import { answerRun, parkedRuns } from "./park-sql";
import { openParkPool } from "./park-tables";
import { prepareSystemDatabase } from "./prepare-database";
import { planRecovery } from "./recovery-plan";
import { newRunId } from "./run-id";
import { checkRunInput, type DurableRunInput } from "./run-input";
import { type DurableRunState, type DurableRunStatus, runStatusOf } from "./run-status";
import { systemDatabaseUrl } from "./system-database-url";

/** A run to submit; what is left out is filled in (a new id, seed 0, the start instant now). */
export interface SubmitRun {
  readonly prompt: { readonly path: string; readonly text: string };
  readonly args?: string;
  readonly seed?: number;
  readonly startedAt?: number;
  readonly runId?: string;
  readonly options?: JsonObject;
  /** The Runvil version the run is journaled with (default: this package's). */
  readonly runvilVersion?: string;
}

/** Submits, reads and answers durable runs; launches no worker. */
export interface DurableClient {
  /** Enqueues a run for a worker; resolves with its id. */
  submit(run: SubmitRun): Promise<string>;
  /** Waits for the run's end and gives its result. */
  result(runId: string, options?: { readonly timeoutMs?: number }): Promise<RunResult>;
  /** The run's status, undefined when there is no such run. */
  status(runId: string): Promise<DurableRunStatus | undefined>;
  /** Durable runs, newest first. */
  list(options?: {
    readonly limit?: number;
    readonly state?: DurableRunState;
  }): Promise<DurableRunStatus[]>;
  /** The effect ids of the asks the run waits on now, oldest first. */
  waitingAsks(runId: string): Promise<string[]>;
  /**
   * Recovers the runs of executors that are gone (executor recovery without DBOS's hosted
   * conductor): their runs still marked running go back on the queue for any worker. Resolves
   * with their ids. Only for executors known dead: a live one loses its runs mid-step.
   */
  recover(executorIds: readonly string[]): Promise<string[]>;
  /**
   * Delivers `text` to the run's oldest waiting ask; resolves with that ask's effect id and
   * whether the run was parked (and is back on the queue now, for whichever worker is free).
   */
  answer(runId: string, text: string): Promise<{ readonly ask: string; readonly resumed: boolean }>;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

const DBOS_STATES: Record<DurableRunState, string[]> = {
  enqueued: ["ENQUEUED", "DELAYED"],
  running: ["PENDING"],
  finished: ["SUCCESS"],
  failed: ["ERROR", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"],
  cancelled: ["CANCELLED"],
  waiting: ["CANCELLED"],
};

/** How often `result` looks again at a parked run (ms). */
const PARKED_POLL_MS = 1000;

/**
 * Opens a client on the durable runs database at `databaseUrl` (a `postgres://` URL), creating
 * or migrating DBOS's schema first, so a run can be submitted before any worker launched.
 */
export async function openDurableClient(databaseUrl: string): Promise<DurableClient> {
  const url = systemDatabaseUrl(databaseUrl);
  await prepareSystemDatabase(url);
  const parkPool = await openParkPool(databaseUrl);
  try {
    const client = await DBOSClient.create({
      systemDatabaseUrl: url,
      applicationName: DURABLE_APPLICATION,
    });
    return wrapClient(client, parkPool, true);
  } catch (error) {
    await parkPool.end().catch(() => {});
    throw error;
  }
}

/**
 * The DurableClient over a DBOS client and the pool of the parked runs (a worker shares its
 * own); `ownsPool`: `close` ends the pool too.
 */
export function wrapClient(client: DBOSClient, parkPool: Pg.Pool, ownsPool = false): DurableClient {
  /** The run statuses of DBOS's `statuses`, a cancelled one that is parked as `waiting`. */
  const withParked = async (statuses: readonly WorkflowStatus[]): Promise<DurableRunStatus[]> => {
    const cancelled = statuses.filter((s) => s.status === "CANCELLED").map((s) => s.workflowID);
    const parked = await parkedRuns(parkPool, cancelled);
    return statuses.map((s) => runStatusOf(s, parked.get(s.workflowID)));
  };
  const statusOf = async (runId: string): Promise<DurableRunStatus | undefined> => {
    const status = await client.getWorkflow(runId);
    if (status === undefined || status.workflowName !== DURABLE_WORKFLOW) return undefined;
    return (await withParked([status]))[0];
  };
  const mustExist = async (runId: string): Promise<DurableRunStatus> => {
    const status = await statusOf(runId);
    if (status === undefined) {
      throw new DurableError("no_such_run", `no durable run ${runId} (list them with runvil runs)`);
    }
    return status;
  };
  /** The run's result text; a parked run is waited for until it is answered and ends. */
  const resultText = async (runId: string): Promise<string> => {
    for (;;) {
      try {
        return await client.retrieveWorkflow<string>(runId).getResult();
      } catch (error) {
        // DBOS reports a parked run as cancelled; one answered since is queued or running again.
        const state = (await statusOf(runId))?.state;
        if (state === "cancelled" || state === "failed" || state === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, PARKED_POLL_MS));
      }
    }
  };
  const waitingAsks = async (runId: string): Promise<string[]> => {
    const steps = (await client.listWorkflowSteps(runId)) ?? [];
    return planRecovery(runId, steps, { live: true }).flatMap((p) =>
      p.kind === "ask" && !p.answered ? [p.effect] : [],
    );
  };

  return {
    async submit(run) {
      const startedAt = run.startedAt ?? Date.now();
      const input: DurableRunInput = checkRunInput(
        {
          runId: run.runId ?? newRunId(startedAt),
          prompt: run.prompt,
          args: run.args ?? "",
          seed: run.seed ?? 0,
          startedAt,
          runvilVersion: run.runvilVersion ?? RUNVIL_VERSION,
          ...(run.options === undefined ? {} : { options: run.options }),
        },
        "submit",
      );
      await client.enqueue(
        {
          workflowName: DURABLE_WORKFLOW,
          queueName: DURABLE_QUEUE,
          workflowID: input.runId,
          appVersion: applicationVersion(input.runvilVersion),
        },
        input,
      );
      return input.runId;
    },

    async result(runId, options = {}) {
      await mustExist(runId);
      const waited = resultText(runId);
      const text = await withTimeout(waited, options.timeoutMs, runId).catch((error: unknown) => {
        if (error instanceof DurableError) throw error;
        throw new DurableError(
          "failed",
          `run ${runId} failed: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      });
      return decodeValue(text) as RunResult;
    },

    status: (runId) => statusOf(runId),

    async list(options = {}) {
      const statuses = await client.listWorkflows({
        workflowName: DURABLE_WORKFLOW,
        sortDesc: true,
        loadInput: true,
        loadOutput: false,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.state === undefined ? {} : { status: DBOS_STATES[options.state] as never }),
      });
      const runs = await withParked(statuses);
      return options.state === undefined ? runs : runs.filter((r) => r.state === options.state);
    },

    async waitingAsks(runId) {
      await mustExist(runId);
      return waitingAsks(runId);
    },

    async recover(executorIds) {
      if (executorIds.length === 0) return [];
      const stranded = await client.listWorkflows({
        workflowName: DURABLE_WORKFLOW,
        status: "PENDING",
        executorId: [...executorIds],
      });
      const ids = stranded.map((s) => s.workflowID);
      if (ids.length > 0) await client.resumeWorkflows(ids, { queueName: DURABLE_QUEUE });
      return ids;
    },

    async answer(runId, text) {
      if (typeof text !== "string")
        throw new DurableError("invalid", `answer ${runId}: the answer must be a string`);
      const status = await mustExist(runId);
      const waits = status.state === "running" || status.state === "waiting";
      const asks = waits ? await waitingAsks(runId) : [];
      const ask = asks[0];
      if (ask === undefined) {
        const where = waits ? `is ${status.state} and waits on no ask` : `is ${status.state}`;
        throw new DurableError(
          "not_waiting",
          `run ${runId} ${where}: there is no question to answer`,
        );
      }
      // One message per ask: a second answer to the same ask is dropped by the idempotency key.
      // Sent under the run's lock, in the transaction that puts a parked run back on the queue.
      const { resumed } = await answerRun(parkPool, runId, (tx) =>
        client.sendInTransaction(tx, runId, { text }, ask, `${runId}/${ask}`),
      );
      return { ask, resumed };
    },

    async close() {
      await client.destroy();
      if (ownsPool) await parkPool.end();
    },
  };
}

function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number | undefined,
  runId: string,
): Promise<T> {
  if (timeoutMs === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new DurableError("timeout", `run ${runId} did not end within ${timeoutMs} ms`)),
      timeoutMs,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
