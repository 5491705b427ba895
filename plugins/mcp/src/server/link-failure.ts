/**
 * A failure of the connection to a server, carrying a model-safe summary in fixed words (what
 * happened, never a server's text unless it is trusted) and the hidden detail as `cause`.
 */
export class LinkFailure extends Error {
  constructor(summary: string, options?: { cause?: unknown }) {
    super(summary, options);
    this.name = "LinkFailure";
  }
}

/** The most characters of a trusted server's own text a message quotes. */
export const MAX_QUOTED_CHARS = 500;

/**
 * A server's text made fit to quote in a message: control characters and runs of whitespace
 * become one space, trimmed, cut to {@link MAX_QUOTED_CHARS} with `…`.
 */
export function quotable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const line = text.replace(/[\u0000-\u001f\u007f\s]+/g, " ").trim();
  return line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…` : line;
}
