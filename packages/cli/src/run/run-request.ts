import type { RunResult } from "@runvil/protocol";

/**
 * Everything one `runvil run` needs, as plain data: it is handed to the run's worker thread as
 * is (structured clone), so it holds no functions.
 */
export interface RunRequest {
  /** The prompt file as given on the command line (messages, the parser, the config lookup). */
  readonly file: string;
  /** The prompt file's bytes. */
  readonly bytes: Uint8Array;
  /** The argument string (`args`). */
  readonly args: string;
  /** The run seed; absent: the Engine's default (0). */
  readonly seed?: bigint;
  /** A store directory; absent: an in-memory store for this run. */
  readonly store?: string;
  /** The Host configuration file (`--config`); absent: the nearest runvil.config.json. */
  readonly configFile?: string;
  /** Whether the run is lent an input broker (`runvil/input-broker`). */
  readonly operator: boolean;
  /** Whether every event is wanted as a JSON Lines line by the run's listener. */
  readonly eventLines: boolean;
  /**
   * The `--events` file, already made empty: the run's thread appends every event to it as
   * it happens (docs/design/events.md "The events file").
   */
  readonly eventsFile?: string;
  /** Whether the progress line's text is wanted (stderr is a terminal). */
  readonly progress: boolean;
}

/** How a run request ended, as plain data (it crosses back from the worker). */
export type RunReport =
  /** The prompt did not parse: the line to print (`{file}: {Kind} error: {message}`). */
  | { readonly kind: "parse-error"; readonly text: string }
  /** The Host could not be set up (a bad runvil.config.json, a plugin that failed): the text. */
  | { readonly kind: "host-error"; readonly text: string }
  /** Prepare refused the run: the requirements notice. */
  | { readonly kind: "refused"; readonly notice: string }
  /** The run ran: its result, and the stderr line when the events file could not be written. */
  | { readonly kind: "finished"; readonly result: RunResult; readonly eventsFileError?: string };
