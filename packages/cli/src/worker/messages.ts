import type { RunReport, RunRequest } from "../run/run-request";

/** What the main thread hands the run's worker at start (its `workerData`). */
export interface WorkerStart {
  readonly request: RunRequest;
  /**
   * The run's flags: an Int32Array of two elements, all 0 at start. Ctrl-C sets element
   * {@link CANCEL_SLOT} to 1 (RunOptions.cancelFlag), SIGTERM element {@link STOP_SLOT}
   * (RunOptions.stopFlag).
   */
  readonly cancelFlag: SharedArrayBuffer;
}

/** The index of the cancel flag in {@link WorkerStart.cancelFlag}. */
export const CANCEL_SLOT = 0;

/** The index of the stop flag in {@link WorkerStart.cancelFlag}. */
export const STOP_SLOT = 1;

/** A message from the main thread to the run's worker. */
export type ToWorker =
  /** Ctrl-C: end every wait of the run (the flag already stops running Lua). */
  | { readonly type: "cancel" }
  /** SIGTERM: stop the run (abort its stop signal; the flag already stops running Lua). */
  | { readonly type: "stop" }
  /** The operator's answer to ask `id`. */
  | { readonly type: "answer"; readonly id: number; readonly text: string }
  /** The input broker failed ask `id` with this (model-safe) message. */
  | { readonly type: "answer-failed"; readonly id: number; readonly message: string };

/** A message from the run's worker to the main thread. */
export type FromWorker =
  /** One run event as a JSON Lines line (only when the request wants them). */
  | { readonly type: "event-line"; readonly line: string }
  /** The progress line's new text (only when the request wants it). */
  | { readonly type: "progress"; readonly text: string }
  /** The run asks the operator (`runvil/input-broker`); answer with the same id. */
  | { readonly type: "ask"; readonly id: number; readonly prompt?: string }
  /** The run no longer waits for ask `id` (the call was cancelled). */
  | { readonly type: "ask-withdrawn"; readonly id: number }
  /** A tool failed with an exception that is not a ToolFailure (shown to the user, not the model). */
  | { readonly type: "tool-error"; readonly toolId: string; readonly text: string }
  /** A model round failed with an exception that is not a ModelFailure (shown to the user only). */
  | { readonly type: "model-error"; readonly model: string; readonly text: string }
  /** How the request ended: the worker's last message. */
  | { readonly type: "report"; readonly report: RunReport }
  /** The worker failed unexpectedly (a bug): the error's text. */
  | { readonly type: "crash"; readonly message: string };
