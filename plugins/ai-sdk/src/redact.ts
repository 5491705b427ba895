/**
 * Replaces every secret (an API key) in `text` with `[redacted]`. Secrets shorter than 4
 * characters are ignored: they cannot be told from ordinary text.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join("[redacted]");
  }
  return out;
}

/**
 * An error for the Host's log that says what `error` said, with every secret removed from its
 * message and stack (an AI SDK error can quote a URL or a response body).
 */
export function redactedError(error: unknown, secrets: readonly string[]): Error {
  const message = error instanceof Error ? error.message : String(error);
  const copy = new Error(redact(message, secrets));
  copy.name = error instanceof Error ? error.name : "Error";
  const stack = error instanceof Error ? error.stack : undefined;
  copy.stack = stack === undefined ? `${copy.name}: ${copy.message}` : redact(stack, secrets);
  const status = statusOf(error);
  const body = bodyOf(error);
  if (status !== undefined || body !== undefined) {
    copy.stack += `\n    status: ${status ?? "none"}; response body: ${redact(body ?? "", secrets).slice(0, 2000)}`;
  }
  return copy;
}

function statusOf(error: unknown): number | undefined {
  const value = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof value === "number" ? value : undefined;
}

function bodyOf(error: unknown): string | undefined {
  const value = (error as { responseBody?: unknown } | null)?.responseBody;
  return typeof value === "string" ? value : undefined;
}
