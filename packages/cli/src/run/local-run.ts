import type { InputBroker } from "@runvil/sdk";
import { executeRun } from "./execute-run";
import { type RunHandle, type RunListeners, STOP_DEADLINE_MS } from "./run-handle";
import type { RunRequest } from "./run-request";

/**
 * Starts a run in this thread (tests, embedding). Ctrl-C (`cancel`) aborts every wait and is
 * polled by the Lua count hook, but a block spinning in pure Lua holds this thread, so the
 * cancel is only seen at the run's next effect: use a worker run for a terminal. SIGTERM
 * (`stop`) works the same way through the stop signal and an in-thread stop check; a run the
 * stop has not ended `stopDeadlineMs` after it (while no operator question is open) is
 * cancelled, as in a worker run, but no thread can be ended here.
 */
export function startLocalRun(
  request: RunRequest,
  listeners: RunListeners & { readonly broker?: InputBroker; readonly stopDeadlineMs?: number },
): RunHandle {
  const controller = new AbortController();
  const stopController = new AbortController();
  let cancelled = false;
  let stopped = false;
  let escalated = false;
  let openAsks = 0;
  let deadline: NodeJS.Timeout | undefined;
  const cancel = (): void => {
    cancelled = true;
    if (deadline !== undefined) clearTimeout(deadline);
    controller.abort();
  };
  const armStopDeadline = (): void => {
    if (!stopped || cancelled || openAsks > 0 || deadline !== undefined) return;
    deadline = setTimeout(() => {
      escalated = true;
      cancel();
    }, listeners.stopDeadlineMs ?? STOP_DEADLINE_MS);
  };
  const { broker: given, stopDeadlineMs: _, ...rest } = listeners;
  const broker: InputBroker | undefined =
    given === undefined
      ? undefined
      : {
          ask(request) {
            openAsks += 1;
            if (deadline !== undefined) clearTimeout(deadline);
            deadline = undefined;
            return given.ask(request).finally(() => {
              openAsks -= 1;
              armStopDeadline();
            });
          },
        };
  const done = executeRun(request, {
    ...rest,
    ...(broker === undefined ? {} : { broker }),
    signal: controller.signal,
    shouldCancel: () => cancelled,
    stopSignal: stopController.signal,
    shouldStop: () => stopped,
    yieldToEventLoop: true,
  }).then((report) => {
    if (deadline !== undefined) clearTimeout(deadline);
    return escalated
      ? { kind: "report" as const, report, afterStop: true as const }
      : { kind: "report" as const, report };
  });
  return {
    done,
    cancel,
    stop() {
      if (stopped || cancelled) return;
      stopped = true;
      stopController.abort();
      armStopDeadline();
    },
  };
}
