/** Where a CLI command writes. The real CLI passes process streams; tests pass buffers. */
export interface CliIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Reads a file as raw bytes (the parser checks the encoding itself). */
  readFile(path: string): Promise<Uint8Array>;
}
