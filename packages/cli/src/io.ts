import type { InputBroker } from "@runvil/sdk";

/** The operator's side of the terminal: where a run's input broker comes from. */
export interface CliOperator {
  /** Whether standard input is a terminal (`--input auto` lends a broker only then). */
  readonly isTTY: boolean;
  /** Makes the input broker that reads the operator's answers (called at most once per run). */
  broker(): InputBroker;
}

/** Where a CLI command writes. The real CLI passes process streams; tests pass buffers. */
export interface CliIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Reads a file as raw bytes (the parser checks the encoding itself). */
  readFile(path: string): Promise<Uint8Array>;
  /** Whether stderr is a terminal (live progress lines are shown only then); absent: no. */
  readonly stderrIsTTY?: boolean;
  /**
   * Calls `listener` on every Ctrl-C (SIGINT) until the returned function is called. Absent:
   * Ctrl-C is not handled (tests).
   */
  onInterrupt?(listener: () => void): () => void;
  /**
   * Calls `listener` on every SIGTERM until the returned function is called: `runvil run` then
   * stops the run, which is not a cancel (docs/design/stop.md). Absent: SIGTERM is not handled.
   */
  onTerminate?(listener: () => void): () => void;
  /** The operator (standard input); absent: no run gets an input broker. */
  readonly operator?: CliOperator;
  /**
   * Run `runvil run` in a worker thread (the real CLI: Ctrl-C then stops even a spinning block).
   * Absent or false: in this thread (tests, embedding), where Ctrl-C is seen only at effects.
   */
  readonly runInWorker?: boolean;
  /** Ends the process at once with `code` (a second Ctrl-C); absent: `process.exit`. */
  exit?(code: number): void;
}
