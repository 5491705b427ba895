import { InputFileError } from "@runvil/host/input-file";

/**
 * The message printed after `{file}: ` when a prompt file cannot be read: an InputFileError's
 * own detail (`is a FIFO (named pipe), not a regular file`, `is larger than 8388608 bytes, the
 * most a prompt file may hold`), else read from the error's code.
 */
export function readFailureMessage(error: unknown): string {
  if (error instanceof InputFileError) return error.detail;
  const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
  if (reason === "ENOENT") return "no such file";
  if (reason === "EISDIR") return "is a directory";
  return `cannot read the file (${reason})`;
}
