import { Worker } from "node:worker_threads";
import type { InputBroker } from "@runvil/sdk";
import {
  type RunEnd,
  type RunHandle,
  type RunListeners,
  STOP_DEADLINE_MS,
} from "../run/run-handle";
import type { RunRequest } from "../run/run-request";
import { startupMark } from "../startup-marks";
import {
  CANCEL_SLOT,
  type FromWorker,
  STOP_SLOT,
  type ToWorker,
  type WorkerStart,
} from "./messages";
import { takePrestartedRunWorker } from "./prestart";

/** How long a cancelled run may take to end before its thread is terminated (2 s). */
export const CANCEL_GRACE_MS = 2000;

/** Options of {@link startWorkerRun}. */
export interface WorkerRunOptions extends RunListeners {
  /** The operator's input broker on this thread; the run's asks are forwarded to it. */
  readonly broker?: InputBroker;
  /** The grace period after `cancel` (default {@link CANCEL_GRACE_MS}). */
  readonly graceMs?: number;
  /** The stop deadline (default {@link STOP_DEADLINE_MS}). */
  readonly stopDeadlineMs?: number;
  /** The worker script (default: worker.cjs beside this module, i.e. dist/worker.cjs). */
  readonly workerUrl?: URL;
}

/**
 * Starts a run in a worker thread (docs/design/architecture.md "Threads and cancellation").
 * `cancel` sets the shared cancel flag, which every section VM's count hook reads, and asks the
 * worker to end every wait; if the run has not ended `graceMs` later, the worker is terminated
 * and the run ends `terminated`. `stop` sets the shared stop flag and asks the worker to stop
 * the run (docs/design/stop.md). A stop has a deadline that counts while no operator question
 * is open (an open question may wait for a person): a run that has not ended `stopDeadlineMs`
 * after the stop, or after its last open question closed, is cancelled, and then terminated
 * after the cancel's grace period; its end is marked `afterStop`. The operator's questions are
 * forwarded to `broker`.
 */
export function startWorkerRun(request: RunRequest, options: WorkerRunOptions): RunHandle {
  const flagBuffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const flag = new Int32Array(flagBuffer);
  const start: WorkerStart = { request, cancelFlag: flagBuffer };
  // The thread bin.ts started early, when there is one (docs/design/performance.md).
  const prestarted = options.workerUrl === undefined ? takePrestartedRunWorker(start) : undefined;
  const worker =
    prestarted ??
    new Worker(options.workerUrl ?? new URL("./worker.cjs", import.meta.url), {
      workerData: start,
    });
  const send = (message: ToWorker): void => worker.postMessage(message);
  const asks = new Map<number, AbortController>();
  let grace: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let cancelled = false;
  let stopped = false;
  let escalated = false;
  let settled = false;
  let settle: (end: RunEnd | Error) => void = () => {};

  const done = new Promise<RunEnd>((resolve, reject) => {
    settle = (end) => {
      if (settled) return;
      settled = true;
      if (grace !== undefined) clearTimeout(grace);
      if (deadline !== undefined) clearTimeout(deadline);
      for (const controller of asks.values()) controller.abort();
      asks.clear();
      void worker.terminate();
      if (end instanceof Error) reject(end);
      else resolve(escalated ? { ...end, afterStop: true } : end);
    };
  });

  const cancel = (): void => {
    if (cancelled || settled) return;
    cancelled = true;
    if (deadline !== undefined) clearTimeout(deadline);
    deadline = undefined;
    Atomics.store(flag, CANCEL_SLOT, 1);
    send({ type: "cancel" });
    grace = setTimeout(() => settle({ kind: "terminated" }), options.graceMs ?? CANCEL_GRACE_MS);
  };
  // The stop deadline runs while the run is stopped, not cancelled, and asks the operator nothing.
  const armStopDeadline = (): void => {
    if (!stopped || cancelled || settled || asks.size > 0 || deadline !== undefined) return;
    deadline = setTimeout(() => {
      escalated = true;
      cancel();
    }, options.stopDeadlineMs ?? STOP_DEADLINE_MS);
  };
  const askOpened = (): void => {
    if (deadline !== undefined) clearTimeout(deadline);
    deadline = undefined;
  };
  const askClosed = (id: number): boolean => {
    const open = asks.delete(id);
    armStopDeadline();
    return open;
  };

  const forwardAsk = (id: number, prompt: string | undefined): void => {
    const broker = options.broker;
    if (broker === undefined) {
      send({ type: "answer-failed", id, message: "this run has no operator to ask" });
      return;
    }
    const controller = new AbortController();
    asks.set(id, controller);
    askOpened();
    const { signal } = controller;
    broker.ask(prompt === undefined ? { signal } : { prompt, signal }).then(
      (text) => {
        if (askClosed(id)) send({ type: "answer", id, text });
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (askClosed(id)) send({ type: "answer-failed", id, message });
      },
    );
  };

  worker.on("message", (message: FromWorker) => {
    switch (message.type) {
      case "event-line":
        options.onEventLine?.(message.line);
        return;
      case "progress":
        options.onProgress?.(message.text);
        return;
      case "tool-error":
        options.onToolError?.(message.toolId, message.text);
        return;
      case "model-error":
        options.onModelError?.(message.model, message.text);
        return;
      case "ask":
        forwardAsk(message.id, message.prompt);
        return;
      case "ask-withdrawn":
        asks.get(message.id)?.abort();
        askClosed(message.id);
        return;
      case "report":
        startupMark("report received");
        settle({ kind: "report", report: message.report });
        return;
      case "crash":
        settle(new Error(`the run's thread failed: ${message.message}`));
        return;
    }
  });
  worker.on("error", (error) => settle(error));
  worker.on("exit", (code) => {
    settle(new Error(`the run's thread exited (code ${code}) before the run ended`));
  });

  return {
    done,
    cancel,
    stop() {
      if (stopped || cancelled || settled) return;
      stopped = true;
      Atomics.store(flag, STOP_SLOT, 1);
      send({ type: "stop" });
      armStopDeadline();
    },
  };
}
