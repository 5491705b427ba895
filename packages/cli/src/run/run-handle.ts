import type { RunReport } from "./run-request";

/**
 * How long a stopped run may take to end, while no operator question is open, before the stop
 * escalates to a cancel (10 s; docs/design/stop.md "The stop deadline").
 */
export const STOP_DEADLINE_MS = 10_000;

/**
 * How a started run ended: with its report, or by force after a cancel. `afterStop` marks a run
 * whose stop did not end it within the stop deadline, so that the stop escalated to a cancel
 * (docs/design/stop.md "The stop deadline").
 */
export type RunEnd =
  | { readonly kind: "report"; readonly report: RunReport; readonly afterStop?: true }
  /** The run did not end within the grace period after a cancel, so its thread was terminated. */
  | { readonly kind: "terminated"; readonly afterStop?: true };

/** A run started in this thread or in a worker. */
export interface RunHandle {
  /** Settles when the run ended (rejects only for a bug: a crashed worker). */
  readonly done: Promise<RunEnd>;
  /** Ctrl-C: cancels the run (it ends cancelled); calling it again does nothing more. */
  cancel(): void;
  /**
   * SIGTERM: stops the run, which is not a cancel (docs/design/stop.md): nothing new starts, a
   * running block stops, a pending operator question stays open until answered, and the run
   * ends cancelled with `stopped: true`. Calling it again, or after `cancel`, does nothing. A
   * run the stop has not ended by the stop deadline is cancelled (the end is marked `afterStop`).
   */
  stop(): void;
}

/** What a started run reports back while it runs. */
export interface RunListeners {
  /** Each run event as a JSON Lines line (when the request asks for them). */
  readonly onEventLine?: (line: string) => void;
  /** The progress line's new text (when the request asks for it). */
  readonly onProgress?: (text: string) => void;
  /** A tool failed with an exception that is not a ToolFailure: its id and the error's text. */
  readonly onToolError?: (toolId: string, text: string) => void;
  /**
   * A model round failed with an exception that is not a ModelFailure (or a malformed reply):
   * the catalog id and the error's text.
   */
  readonly onModelError?: (model: string, text: string) => void;
}
