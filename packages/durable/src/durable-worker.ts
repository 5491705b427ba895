import { hostname } from "node:os";
import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { registerInternalQueue } from "@dbos-inc/dbos-sdk/eventreceiver";
import { decodeValue } from "@runvil/journal";
import type { RunResult } from "@runvil/protocol";
import { type DurableClient, wrapClient } from "./durable-client";
import { DurableError } from "./durable-error";
import {
  applicationVersion,
  DURABLE_APPLICATION,
  DURABLE_QUEUE,
  DURABLE_WORKFLOW,
  RUNVIL_VERSION,
  runvilVersionOf,
} from "./names";
import { parkRun } from "./park-sql";
import { openParkPool } from "./park-tables";
import { prepareSystemDatabase } from "./prepare-database";
import { checkRunInput, type DurableRunInput } from "./run-input";
import { dbosSteps, type ExecuteRun, runWorkflow, versionMismatch } from "./run-workflow";
import { StepGate } from "./step-gate";
import { systemDatabaseUrl } from "./system-database-url";

/** The ask tools a durable run answers with a durable wait by default. */
export const DEFAULT_ASK_TOOLS: readonly string[] = ["user-input/ask"];

/** How long a run waits on asks alone before its worker parks it, by default (ms). */
export const DEFAULT_PARK_AFTER_MS = 30_000;

/** How a worker is started. */
export interface DurableWorkerOptions {
  /** The durable runs database (`postgres://…`): DBOS's system database. */
  readonly databaseUrl: string;
  /** Runs one execution of a run (see ExecuteRun). */
  readonly execute: ExecuteRun;
  /**
   * This worker's DBOS executor id (default `{hostname}-{pid}`). Keep it stable per worker slot:
   * a worker started again with the id of one that died recovers that one's runs at launch.
   */
  readonly executorId?: string;
  /** Runs this worker takes from the queue at once (the queue's worker concurrency; default 4). */
  readonly concurrency?: number;
  /** This worker's Runvil version (default: this package's). */
  readonly runvilVersion?: string;
  /** Tools whose calls are operator asks (default `user-input/ask`). */
  readonly askTools?: readonly string[];
  /** DBOS's log level (default `warn`). */
  readonly logLevel?: string;
  /**
   * How long a run waits on operator asks with no other effect in flight before this worker
   * parks it (ms; 0: at once; default 30 s; `"never"`: a waiting run keeps its slot). A parked
   * run holds no slot; an answer puts it back on the queue (docs/design/durable.md "Long waits").
   */
  readonly parkAfterMs?: number | "never";
  /** Lines for the worker's log: each park, and each park that could not be made. */
  readonly onNote?: (message: string) => void;
}

/** A run another Runvil version journaled, which this worker leaves alone. */
export interface RefusedRun {
  readonly runId: string;
  readonly runVersion: string;
  readonly workerVersion: string;
  readonly message: string;
}

/** A worker: DBOS launched in this process, taking durable runs from the queue. */
export interface DurableWorker {
  readonly executorId: string;
  /** The client over this worker's connection (submit, result, answer, list). */
  readonly client: DurableClient;
  /** The client's `recover`: puts the runs of executors that are gone back on the queue. */
  recover(executorIds: readonly string[]): Promise<string[]>;
  /** Runs of other Runvil versions waiting in the database, each refusal naming both versions. */
  refusedRuns(): Promise<RefusedRun[]>;
  /**
   * Runs `input` in this process now, not through the queue, and resolves with its result (a
   * run parked on an ask: once answered, wherever it then runs).
   */
  run(input: DurableRunInput): Promise<RunResult>;
  /**
   * Stops the worker. It takes no run any more; with `drain` (the default) no new step starts
   * and the steps in flight finish and are recorded first. Its unfinished runs stay running in
   * the database, recovered by a worker started with this executor id, or (`handOver`) put back
   * on the queue at once for the other workers.
   */
  shutdown(options?: DurableShutdownOptions): Promise<void>;
}

/** How a worker stops. */
export interface DurableShutdownOptions {
  /** Let the steps in flight finish and record before stopping (default true). */
  readonly drain?: boolean;
  /** Put this worker's unfinished runs back on the queue for other workers (default false). */
  readonly handOver?: boolean;
}

let launched = false;
let workflow: ((input: unknown) => Promise<string>) | undefined;
let current: { deps: Parameters<typeof runWorkflow>[1] } | undefined;

/**
 * Dispatches the `runvil-runs` queue in this process with `concurrency` as this worker's own
 * limit (docs/design/durable.md "Per-worker concurrency"). A queue of DBOS.registerQueue is a row
 * of `dbos.queues` whose one worker_concurrency every process copies each second, so the last
 * worker registered would set the limit of all; a process-local queue keeps its configuration
 * and its name wins over such a row. It must exist before DBOS.launch, which dispatches the
 * process-local queues it finds; it stays registered across a shutdown, so a later worker of
 * this process sets its own limit on it.
 */
function takeRunsAtOnce(concurrency: number): void {
  const queue = registerInternalQueue(DURABLE_QUEUE, { workerConcurrency: concurrency });
  queue.workerConcurrency = concurrency;
}

/**
 * Launches DBOS in this process on `databaseUrl` (creating its schema on first use), registers
 * the `runvil.run` workflow and the `runvil-runs` queue, recovers this executor id's own runs,
 * and starts taking runs. One worker per process (DBOS is one per process).
 */
export async function launchDurableWorker(options: DurableWorkerOptions): Promise<DurableWorker> {
  if (launched) {
    throw new DurableError(
      "invalid",
      "this process already runs a durable worker (DBOS runs once per process)",
    );
  }
  const concurrency = options.concurrency ?? 4;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new DurableError(
      "invalid",
      `worker concurrency ${String(concurrency)} must be a whole number of at least 1`,
    );
  }
  const parkAfterMs = options.parkAfterMs ?? DEFAULT_PARK_AFTER_MS;
  if (parkAfterMs !== "never" && (!Number.isSafeInteger(parkAfterMs) || parkAfterMs < 0)) {
    throw new DurableError(
      "invalid",
      `parkAfterMs ${String(parkAfterMs)} must be a whole number of milliseconds of at least 0, or "never"`,
    );
  }
  const executorId = options.executorId ?? `${hostname()}-${process.pid}`;
  const runvilVersion = options.runvilVersion ?? RUNVIL_VERSION;
  launched = true;
  const gate = new StepGate();
  const databaseUrl = systemDatabaseUrl(options.databaseUrl);
  let dbosClient: DBOSClient | undefined;
  let parkPool: Awaited<ReturnType<typeof openParkPool>> | undefined;
  let parking = true;
  try {
    // One process at a time creates or migrates DBOS's schema; DBOS.launch then finds it current.
    await prepareSystemDatabase(databaseUrl);
    const pool = await openParkPool(options.databaseUrl);
    parkPool = pool;
    dbosClient = await DBOSClient.create({
      systemDatabaseUrl: databaseUrl,
      applicationName: DURABLE_APPLICATION,
    });
    const stepsClient = dbosClient;
    current = {
      deps: {
        steps: gate.gate(dbosSteps),
        execute: options.execute,
        runvilVersion,
        askTools: new Set(options.askTools ?? DEFAULT_ASK_TOOLS),
        recordedSteps: async (runId) => (await stepsClient.listWorkflowSteps(runId)) ?? [],
        ...(parkAfterMs === "never"
          ? {}
          : {
              parking: {
                afterMs: parkAfterMs,
                retryMs: Math.max(1000, parkAfterMs),
                park: (request) => parkRun(pool, { ...request, executorId }),
                active: () => parking,
                note: options.onNote ?? (() => {}),
              },
            }),
      },
    };
    // Registered once per process; the body reads the current worker's dependencies.
    workflow ??= DBOS.registerWorkflow(
      async (input: unknown): Promise<string> => {
        if (current === undefined)
          throw new DurableError("invalid", "no durable worker runs in this process");
        return runWorkflow(input, current.deps);
      },
      { name: DURABLE_WORKFLOW },
    );
    DBOS.setConfig({
      name: DURABLE_APPLICATION,
      systemDatabaseUrl: databaseUrl,
      executorID: executorId,
      applicationVersion: applicationVersion(runvilVersion),
      logLevel: options.logLevel ?? "warn",
    });
    takeRunsAtOnce(concurrency);
    await DBOS.launch();
  } catch (error) {
    launched = false;
    current = undefined;
    await dbosClient?.destroy().catch(() => undefined);
    await parkPool?.end().catch(() => undefined);
    throw error;
  }
  const livePool = parkPool;
  const client = wrapClient(dbosClient, livePool);
  const rawClient = dbosClient;
  const run = workflow;

  return {
    executorId,
    client,

    recover: (executorIds) => client.recover(executorIds),

    async refusedRuns() {
      const waiting = await rawClient.listWorkflows({
        workflowName: DURABLE_WORKFLOW,
        status: ["ENQUEUED", "PENDING"],
      });
      const ours = applicationVersion(runvilVersion);
      return waiting.flatMap((s) => {
        if (s.applicationVersion === ours) return [];
        const runVersion = runvilVersionOf(s.applicationVersion) ?? String(s.applicationVersion);
        return [
          {
            runId: s.workflowID,
            runVersion,
            workerVersion: runvilVersion,
            message: versionMismatch(s.workflowID, runVersion, runvilVersion).message,
          },
        ];
      });
    },

    async run(input) {
      const checked = checkRunInput(input, "run");
      const handle = await DBOS.startWorkflow(run, { workflowID: checked.runId })(checked);
      // A run parked on an ask ends this handle as cancelled: its result comes once answered.
      const text = await handle.getResult().catch(async (error: unknown) => {
        if ((await client.status(checked.runId))?.state !== "waiting") throw error;
        return undefined;
      });
      if (text === undefined) return client.result(checked.runId);
      return decodeValue(text) as RunResult;
    },

    async shutdown(shutdownOptions = {}) {
      parking = false;
      try {
        if (shutdownOptions.drain ?? true) await gate.drain();
        await DBOS.shutdown();
        if (shutdownOptions.handOver === true) await client.recover([executorId]);
      } finally {
        current = undefined;
        launched = false;
        await rawClient.destroy().catch(() => undefined);
        await livePool.end().catch(() => undefined);
      }
    },
  };
}
