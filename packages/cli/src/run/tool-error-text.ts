/**
 * The text shown for a tool's or a model round's unexpected exception (the model and the run
 * only see a generic failure): its stack, else its name and message, else its string.
 */
export function toolErrorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
