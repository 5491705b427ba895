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
}
