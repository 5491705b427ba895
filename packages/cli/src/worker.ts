/**
 * The entry point of the thread a `runvil run` runs in (built as dist/worker.js): it performs
 * the request the main thread hands over and posts the events, the progress, the operator's
 * questions and the report back. docs/design/cli.md "The worker".
 */
import { setFlagsFromString } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { executeRun } from "./run/execute-run";
import type { FromWorker, ToWorker, WorkerStart } from "./worker/messages";
import { ProxyInputBroker } from "./worker/proxy-input-broker";

/**
 * V8 compiles hot WebAssembly functions again with its optimizing compiler in the background
 * once they have run this many bytes' worth; the default (1,800,000) starts those jobs within
 * a one-section run, and the process then waits ~60-80 ms at exit for them to finish. A larger
 * budget tiers up only code that runs long (measured: no slower, even faster on CPU-bound Lua
 * on two cores). docs/design/cli.md "Cold start".
 */
const WASM_TIERING_BUDGET = 50_000_000;

async function main(): Promise<void> {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  const port = parentPort;
  if (port === null) throw new Error("dist/worker.js runs only as a worker thread of runvil run");
  const start = workerData as WorkerStart;
  const post = (message: FromWorker): void => port.postMessage(message);
  const controller = new AbortController();
  const broker = start.request.operator ? new ProxyInputBroker(post) : undefined;
  port.on("message", (message: ToWorker) => {
    if (message.type === "cancel") controller.abort();
    else if (message.type === "answer") broker?.answer(message.id, message.text);
    else broker?.fail(message.id, message.message);
  });
  try {
    const report = await executeRun(start.request, {
      ...(broker === undefined ? {} : { broker }),
      cancelFlag: new Int32Array(start.cancelFlag),
      signal: controller.signal,
      onEventLine: (line) => post({ type: "event-line", line }),
      onProgress: (text) => post({ type: "progress", text }),
      onToolError: (toolId, text) => post({ type: "tool-error", toolId, text }),
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

await main();
