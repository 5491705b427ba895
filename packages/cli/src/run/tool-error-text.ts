/** The text shown for a tool's unexpected exception (the model only sees a generic failure). */
export function toolErrorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
