import { Worker } from "node:worker_threads";
import { startupMark } from "../startup-marks";
import type { WorkerStart } from "./messages";

/** The workerData of a run worker started before its request (see {@link prestartRunWorker}). */
export const PRESTART_WORKER_DATA = "runvil:prestart";

/** The message that hands a prestarted worker what other workers get as their workerData. */
export interface PrestartMessage {
  readonly type: "start";
  readonly start: WorkerStart;
}

/** A worker started by {@link prestartRunWorker} and not taken yet. */
interface Prestarted {
  readonly worker: Worker;
  /** Whether it failed or exited before a run took it. */
  dead: boolean;
}

let prestarted: Prestarted | undefined;

/**
 * Starts the run's worker thread (dist/worker.cjs) before the request exists: bin.ts calls it
 * first thing for `runvil run`, before commander loads and the prompt is read, so the thread's
 * start (Node's worker bootstrap, then the worker bundle's load) overlaps the main thread's own
 * work (docs/design/performance.md). The worker waits for its {@link PrestartMessage}. It does
 * not keep the process alive until a run takes it. Returns the worker; calling it again while
 * one waits returns that one. `url` is the worker script (default: worker.cjs beside this module,
 * i.e. dist/worker.cjs).
 */
export function prestartRunWorker(url = new URL("./worker.cjs", import.meta.url)): Worker {
  if (prestarted !== undefined) return prestarted.worker;
  const worker = new Worker(url, { workerData: PRESTART_WORKER_DATA });
  const entry: Prestarted = { worker, dead: false };
  // A failure before a run takes the worker only makes the run start a fresh one (which
  // reports the failure the usual way).
  worker.on("error", () => {
    entry.dead = true;
  });
  worker.on("exit", () => {
    entry.dead = true;
  });
  worker.unref();
  prestarted = entry;
  return worker;
}

/**
 * Hands the prestarted worker its start and returns it (kept alive from now on), or undefined
 * when there is none, or it died (the caller then starts a worker itself).
 */
export function takePrestartedRunWorker(start: WorkerStart): Worker | undefined {
  const entry = prestarted;
  prestarted = undefined;
  if (entry === undefined || entry.dead) return undefined;
  const message: PrestartMessage = { type: "start", start };
  entry.worker.ref();
  entry.worker.postMessage(message);
  startupMark("start posted");
  return entry.worker;
}

/** Ends a prestarted worker that no run took (the command ended without a run). */
export function discardPrestartedRunWorker(): void {
  const entry = prestarted;
  prestarted = undefined;
  if (entry !== undefined) void entry.worker.terminate();
}
