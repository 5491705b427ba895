/** The message printed after `{file}: ` when a prompt file cannot be read. */
export function readFailureMessage(error: unknown): string {
  const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
  if (reason === "ENOENT") return "no such file";
  if (reason === "EISDIR") return "is a directory";
  return `cannot read the file (${reason})`;
}
