import type { Divergence } from "@runvil/journal";
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
  /**
   * Record the run in the journal (docs/design/journal.md): `journal` is `--journal` as given;
   * absent, RUNVIL_JOURNAL, the configuration's `journal` or `.runvil/runs.db` decide. Absent
   * `record` (`--no-record`, the build's warm-up): the run is not recorded.
   */
  readonly record?: { readonly journal?: string };
  /**
   * `runvil resume`: continue the recorded run `runId` of the journal at `journal` (a file path
   * or URL) instead of recording a new one (docs/design/resume.md); `record` is ignored.
   * `force`: take over a run a process on another host records (`runvil resume --force`).
   */
  readonly resume?: { readonly runId: string; readonly journal: string; readonly force?: boolean };
  /** `--model role=id` bindings; absent: none. */
  readonly models?: Readonly<Record<string, string>>;
  /** `--otel`: the OTLP/HTTP traces endpoint the run's spans are sent to (docs/design/otel.md). */
  readonly otelEndpoint?: string;
}

/** How a run request ended, as plain data (it crosses back from the worker). */
export type RunReport =
  /** The prompt did not parse: the line to print (`{file}: {Kind} error: {message}`). */
  | { readonly kind: "parse-error"; readonly text: string }
  /** The Host could not be set up (a bad runvil.config.json, a plugin that failed): the text. */
  | { readonly kind: "host-error"; readonly text: string }
  /** Prepare refused the run: the requirements notice. */
  | { readonly kind: "refused"; readonly notice: string }
  /** The journal could not be opened (corrupt, newer, locked, …): the text naming it. */
  | { readonly kind: "journal-error"; readonly text: string }
  /**
   * The run ran: its result, the stderr line when the events file could not be written, and
   * where it was recorded; the stderr line when the trace could not be exported.
   */
  | {
      readonly kind: "finished";
      readonly result: RunResult;
      readonly eventsFileError?: string;
      /** The recorded run's id, and a warning when recording stopped early. */
      readonly recorded?: { readonly runId: string; readonly warning?: string };
      /** A resumed run: how many effects the journal answered, ran live, was found applied. */
      readonly resumed?: {
        readonly answered: number;
        readonly live: number;
        readonly foundApplied: number;
        /** The first divergence from the record (the run was cancelled there). */
        readonly divergence?: Divergence;
      };
      readonly otelError?: string;
    };
