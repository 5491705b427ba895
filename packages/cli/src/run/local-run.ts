import type { InputBroker } from "@runvil/sdk";
import { executeRun } from "./execute-run";
import type { RunHandle, RunListeners } from "./run-handle";
import type { RunRequest } from "./run-request";

/**
 * Starts a run in this thread (tests, embedding). Ctrl-C (`cancel`) aborts every wait and is
 * polled by the Lua count hook, but a block spinning in pure Lua holds this thread, so the
 * cancel is only seen at the run's next effect: use a worker run for a terminal. SIGTERM
 * (`stop`) works the same way through the stop signal and an in-thread stop check.
 */
export function startLocalRun(
  request: RunRequest,
  listeners: RunListeners & { readonly broker?: InputBroker },
): RunHandle {
  const controller = new AbortController();
  const stopController = new AbortController();
  let cancelled = false;
  let stopped = false;
  const done = executeRun(request, {
    ...listeners,
    signal: controller.signal,
    shouldCancel: () => cancelled,
    stopSignal: stopController.signal,
    shouldStop: () => stopped,
    yieldToEventLoop: true,
  }).then((report) => ({ kind: "report" as const, report }));
  return {
    done,
    cancel() {
      cancelled = true;
      controller.abort();
    },
    stop() {
      stopped = true;
      stopController.abort();
    },
  };
}
