/**
 * The run's side of the thread a `runvil run` runs in: it performs the request the main thread
 * hands over and posts the events, the progress, the operator's questions and the report back.
 * docs/design/cli.md "The worker". dist/worker.cjs (loader.ts) loads it, within the worker
 * bundle (bundle.ts), and calls `main` (docs/design/performance.md).
 */
import { parentPort } from "node:worker_threads";
import { executeRun } from "../run/execute-run";
import {
  CANCEL_SLOT,
  type FromWorker,
  STOP_SLOT,
  type ToWorker,
  type WorkerStart,
} from "./messages";
import { ProxyInputBroker } from "./proxy-input-broker";

/** Runs the request `start` holds (the worker's workerData, or a prestarted worker's start message). */
export async function main(start: WorkerStart): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error("dist/worker.cjs runs only as a worker thread of runvil run");
  const post = (message: FromWorker): void => port.postMessage(message);
  const controller = new AbortController();
  const stopController = new AbortController(); // SIGTERM (docs/design/stop.md)
  const broker = start.request.operator ? new ProxyInputBroker(post) : undefined;
  port.on("message", (message: ToWorker) => {
    if (message.type === "cancel") controller.abort();
    else if (message.type === "stop") stopController.abort();
    else if (message.type === "answer") broker?.answer(message.id, message.text);
    else broker?.fail(message.id, message.message);
  });
  try {
    const report = await executeRun(start.request, {
      ...(broker === undefined ? {} : { broker }),
      cancelFlag: new Int32Array(start.cancelFlag),
      cancelFlagIndex: CANCEL_SLOT,
      signal: controller.signal,
      stopFlag: new Int32Array(start.cancelFlag),
      stopFlagIndex: STOP_SLOT,
      stopSignal: stopController.signal,
      onEventLine: (line) => post({ type: "event-line", line }),
      onProgress: (text) => post({ type: "progress", text }),
      onToolError: (toolId, text) => post({ type: "tool-error", toolId, text }),
      onModelError: (model, text) => post({ type: "model-error", model, text }),
    });
    post({ type: "report", report });
  } catch (error) {
    post({
      type: "crash",
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  } finally {
    port.close();
  }
}
