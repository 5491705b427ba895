import { hostname } from "node:os";
import { DEFAULT_ASK_TOOLS, type DurableWorker, launchDurableWorker } from "@runvil/durable";
import { openPgStoreDatabase, type PgStoreDatabase } from "@runvil/store-postgres";
import { CliHostCache } from "../host/cli-host";
import type { CliIo } from "../io";
import { VERSION } from "../version";
import { DrainGate } from "./drain-gate";
import { checkReachable, databaseUsageError, messageOf, RUNVIL_SCHEMA } from "./durable-database";
import { durableExecute } from "./durable-execute";
import { WorkerRegistry } from "./worker-registry";

/** Options of `runvil worker`, as typed. */
export interface WorkerCommandOptions {
  readonly database?: string;
  readonly concurrency: string;
  readonly executorId?: string;
  /** Seconds without a heartbeat after which a worker is taken for dead. */
  readonly deadAfter: string;
  /** Milliseconds between heartbeats (and looks for dead workers). */
  readonly heartbeat: string;
  /** Milliseconds a run waits on asks alone before it is parked, or `off`. */
  readonly parkAfter: string;
}

/** `--park-after`: a whole number of milliseconds, `off` (never park), or undefined when bad. */
function parkAfterOf(text: string): number | "never" | undefined {
  return text === "off" ? "never" : wholeNumber(text, 0);
}

/** A whole number of at least `min` from `text`, or undefined. */
function wholeNumber(text: string, min: number): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= min ? value : undefined;
}

/** Resolves on the first SIGTERM or Ctrl-C. */
function stopRequested(io: CliIo): Promise<string> {
  return new Promise((resolve) => {
    const offs: (() => void)[] = [];
    const stop = (signal: string) => () => {
      for (const off of offs) off();
      resolve(signal);
    };
    if (io.onTerminate !== undefined) offs.push(io.onTerminate(stop("SIGTERM")));
    if (io.onInterrupt !== undefined) offs.push(io.onInterrupt(stop("SIGINT")));
  });
}

/**
 * `runvil worker --database URL`: a worker process that takes durable runs from the queue
 * (docs/design/durable-workers.md). It registers in the database's worker registry and beats;
 * every heartbeat it recovers the runs of workers silent past `--dead-after`. A run that waits on
 * operator asks alone for `--park-after` ms is parked: it leaves its slot, and `runvil answer`
 * puts it back on the queue (docs/design/durable.md "Long waits"). SIGTERM (or Ctrl-C)
 * drains: no new effect starts, the effects in flight finish and their steps are recorded, DBOS
 * stops, and the worker marks itself gone so that another worker puts its runs back on the queue
 * at once. Resolves with the exit code when it has stopped.
 */
export async function workerCommand(options: WorkerCommandOptions, io: CliIo): Promise<number> {
  const usage = databaseUsageError(options.database);
  const concurrency = wholeNumber(options.concurrency, 1);
  const deadAfter = wholeNumber(options.deadAfter, 1);
  const heartbeatMs = wholeNumber(options.heartbeat, 10);
  const parkAfterMs = parkAfterOf(options.parkAfter);
  const problem =
    usage ??
    (concurrency === undefined
      ? `error: --concurrency must be a whole number of at least 1, got ${JSON.stringify(options.concurrency)}`
      : deadAfter === undefined
        ? `error: --dead-after must be a whole number of seconds of at least 1, got ${JSON.stringify(options.deadAfter)}`
        : heartbeatMs === undefined
          ? `error: --heartbeat must be a whole number of milliseconds of at least 10, got ${JSON.stringify(options.heartbeat)}`
          : parkAfterMs === undefined
            ? `error: --park-after must be a whole number of milliseconds (0: at once) or off, got ${JSON.stringify(options.parkAfter)}`
            : undefined);
  if (
    problem !== undefined ||
    concurrency === undefined ||
    deadAfter === undefined ||
    heartbeatMs === undefined ||
    parkAfterMs === undefined
  ) {
    io.stderr(`${problem}\n`);
    return 2;
  }
  // Listening from the start: a SIGTERM during the launch drains once the worker is up.
  const stop = stopRequested(io);
  const url = options.database as string;
  const executorId = options.executorId ?? `${hostname()}-${process.pid}`;
  const say = (text: string): void => io.stderr(`worker ${executorId}: ${text}\n`);

  let stores: PgStoreDatabase | undefined;
  let registry: WorkerRegistry | undefined;
  let worker: DurableWorker | undefined;
  const hosts = new CliHostCache();
  const asks = new Set(DEFAULT_ASK_TOOLS);
  const gate = new DrainGate((request) => asks.has(request.tool));
  try {
    // A clear line within seconds for a server down, a refused login or no such database.
    await checkReachable(url);
    let saidUnreachable = 0;
    stores = await openPgStoreDatabase(url, {
      schema: RUNVIL_SCHEMA,
      // A store operation waits for the database as long as DBOS's steps do: an outage is a
      // pause, never an io_error recorded as the step's outcome (docs/design/durable.md).
      unreachableForMs: Number.POSITIVE_INFINITY,
      // Said at most every 30 s, however many runs wait.
      onUnreachable: (message) => {
        if (Date.now() - saidUnreachable < 30_000) return;
        saidUnreachable = Date.now();
        say(message);
      },
    });
    registry = await WorkerRegistry.open(url, RUNVIL_SCHEMA, executorId);
    // Registered before DBOS recovers this id's runs: a claim of this id in progress finishes first.
    await registry.register(VERSION);
    worker = await launchDurableWorker({
      databaseUrl: url,
      executorId,
      concurrency,
      parkAfterMs,
      onNote: say,
      execute: durableExecute({ stores, gate, hosts }),
    });
  } catch (error) {
    say(`cannot start: ${messageOf(error)}`);
    await registry?.close().catch(() => {});
    await stores?.close().catch(() => {});
    return 1;
  }
  const parks = parkAfterMs === "never" ? "never parks" : `parks asks after ${parkAfterMs} ms`;
  say(`taking runs (concurrency ${concurrency}, ${parks}, Runvil ${VERSION})`);
  for (const refused of await worker.refusedRuns().catch(() => [])) say(refused.message);

  const live = worker;
  const liveRegistry = registry;
  let ticking: Promise<void> = Promise.resolve();
  // A database out of reach is said once when the beats start failing and once when they pass again.
  let failingSince: number | undefined;
  const tick = async (): Promise<void> => {
    try {
      await liveRegistry.beat();
      if (failingSince !== undefined) {
        say(
          `the database answers again after ${((Date.now() - failingSince) / 1000).toFixed(1)} s; runs go on`,
        );
        failingSince = undefined;
      }
      const claim = await liveRegistry.recoverDead(deadAfter, (ids) => live.recover(ids));
      if (claim !== undefined) {
        const runs = claim.recovered;
        say(
          `recovered ${runs.length} run${runs.length === 1 ? "" : "s"} of ${claim.executorIds.join(", ")}${runs.length === 0 ? "" : `: ${runs.join(", ")}`}`,
        );
      }
    } catch (error) {
      if (failingSince === undefined) {
        failingSince = Date.now();
        say(
          `heartbeat failed (${messageOf(error)}); runs wait for the database, trying again every ${heartbeatMs} ms`,
        );
      }
    }
  };
  const timer = setInterval(() => {
    ticking = ticking.then(tick);
  }, heartbeatMs);
  ticking = ticking.then(tick);

  const signal = await stop;
  clearInterval(timer);
  await ticking;
  say(`${signal}: draining (${gate.inFlight} effect${gate.inFlight === 1 ? "" : "s"} in flight)`);
  gate.close();
  await gate.drained();
  // DBOS stops, then this worker's unfinished runs go back on the queue for any worker.
  await live
    .shutdown({ handOver: true })
    .catch((error: unknown) => say(`DBOS shutdown: ${messageOf(error)}`));
  // Gone: should the hand-over have failed, the next heartbeat of a live worker recovers them.
  await liveRegistry
    .abandon()
    .catch((error: unknown) => say(`cannot deregister: ${messageOf(error)}`));
  await Promise.all([liveRegistry.close(), stores.close(), hosts.close()]).catch(() => {});
  say("stopped; its runs go on elsewhere");
  return 0;
}
