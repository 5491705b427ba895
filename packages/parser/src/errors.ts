import type { ParseErrorKind, PromptParseError } from "./types";

/** The prefix of every Frontmatter error message. */
export const FRONTMATTER_PREFIX = "invalid frontmatter: ";

/** Appends ` (line N)` to a message. */
export function atLine(message: string, line: number): string {
  return `${message} (line ${line})`;
}

/** Appends ` (line L, column C)` to a message. */
export function atLineColumn(message: string, line: number, column: number): string {
  return `${message} (line ${line}, column ${column})`;
}

/** A parse error that names a line: the message gets ` (line N)` and `line` is set. */
export function errorAtLine(kind: ParseErrorKind, message: string, line: number): PromptParseError {
  return { kind, message: atLine(message, line), line };
}

/** A Frontmatter error: `invalid frontmatter: {message} (line N)`, with `line` set. */
export function frontmatterError(message: string, line: number): PromptParseError {
  return errorAtLine("Frontmatter", FRONTMATTER_PREFIX + message, line);
}

/** A Markdown error: `{message} (line N)`, with `line` set. */
export function markdownError(message: string, line: number): PromptParseError {
  return errorAtLine("Markdown", message, line);
}

/**
 * One line for showing a parse error to a person: the message, prefixed with `{path}: ` when the
 * error carries a file path. The message itself already names the line.
 */
export function describeParseError(error: PromptParseError): string {
  return error.path === undefined ? error.message : `${error.path}: ${error.message}`;
}

/** The text of a thrown value, for errors that come out of a library. */
export function thrownText(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  return String(thrown);
}

/** A value, or the parse error that stopped it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: PromptParseError };

/** The failing side of {@link Checked}. */
export function failed(error: PromptParseError): { ok: false; error: PromptParseError } {
  return { ok: false, error };
}
