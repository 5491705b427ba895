/**
 * Normalizes line endings to `\n`: CRLF and a lone CR each become one LF, so a CRLF file has
 * the same lines as its LF form (Markdown counts a lone CR as a line ending too).
 */
export function normalizeLineEndings(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** The lines of a text whose line endings are `\n`, addressed by absolute 1-based line number. */
export class Lines {
  private readonly lines: string[];

  constructor(text: string) {
    const parts = text.split("\n");
    // A final line ending ends the last line; it does not start a new one.
    if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
    this.lines = parts;
  }

  /** Number of lines (0 for an empty text). */
  get count(): number {
    return this.lines.length;
  }

  /** The text of line `n` without its line ending, or "" past the end. */
  at(n: number): string {
    return this.lines[n - 1] ?? "";
  }

  /** True when line `n` holds only spaces and tabs (or lies past the end). */
  isBlank(n: number): boolean {
    return isBlankLine(this.at(n));
  }

  /** Lines `first` to `last`, inclusive, joined with `\n` ("" when last < first). */
  slice(first: number, last: number): string {
    if (last < first) return "";
    return this.lines.slice(first - 1, last).join("\n");
  }
}

/** True when a line holds only spaces and tabs. */
export function isBlankLine(line: string): boolean {
  return /^[ \t]*$/.test(line);
}
