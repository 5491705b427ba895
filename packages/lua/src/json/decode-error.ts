/**
 * The error json.decode and json.decode_lines raise for text they refuse.
 */

/**
 * Why the parser refused the text. The wording is serde_json's, which the chapter's three
 * examples ("expected value", "trailing characters", "recursion limit exceeded") follow.
 */
export type JsonSyntaxReason =
  | "EOF while parsing a list"
  | "EOF while parsing an object"
  | "EOF while parsing a string"
  | "EOF while parsing a value"
  | "expected `:`"
  | "expected `,` or `]`"
  | "expected `,` or `}`"
  | "expected ident"
  | "expected value"
  | "invalid escape"
  | "invalid number"
  | "number out of range"
  | "invalid unicode code point"
  | "control character (\\u0000-\\u001F) found while parsing a string"
  | "key must be a string"
  | "lone leading surrogate in hex escape"
  | "trailing comma"
  | "trailing characters"
  | "unexpected end of hex escape"
  | "recursion limit exceeded";

/** A line and column in the text: lines count `\n` bytes from 1, columns count bytes. */
export interface JsonTextPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * Where serde_json reports an error whose offending byte is at `index` (`text.length` at the
 * end of the text): line 1 + the number of `\n` before the line, column = bytes from the line
 * start up to and including the offending byte. At the end of the text the column is that of
 * the last byte, so empty text reports column 0.
 */
export function jsonTextPosition(text: Uint8Array, index: number): JsonTextPosition {
  const at = Math.min(index + 1, text.length);
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i < at; i++) {
    if (text[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart };
}

/** json.decode's refusal of its text: a syntax error with a position, or oversized input. */
export class JsonDecodeError extends Error {
  /** The Lua function named in the message, such as `json.decode`. */
  readonly functionName: string;
  /** The message after `{functionName}: `. */
  readonly detail: string;
  /** The syntax reason, or `undefined` for the input-size refusal. */
  readonly reason: JsonSyntaxReason | undefined;
  /** 1-based line of a syntax error. */
  readonly line: number | undefined;
  /** Byte column of a syntax error (see {@link jsonTextPosition}). */
  readonly column: number | undefined;

  constructor(
    functionName: string,
    detail: string,
    reason: JsonSyntaxReason | undefined,
    position: JsonTextPosition | undefined,
  ) {
    super(`${functionName}: ${detail}`);
    this.name = "JsonDecodeError";
    this.functionName = functionName;
    this.detail = detail;
    this.reason = reason;
    this.line = position?.line;
    this.column = position?.column;
  }
}

/** The syntax error for `reason` at the offending byte `index` of `text`. */
export function jsonSyntaxError(
  functionName: string,
  text: Uint8Array,
  reason: JsonSyntaxReason,
  index: number,
): JsonDecodeError {
  const position = jsonTextPosition(text, index);
  return new JsonDecodeError(
    functionName,
    `${reason} at line ${position.line} column ${position.column}`,
    reason,
    position,
  );
}

/** `{fn}: input exceeds the {limit}-byte limit`, raised before any parsing. */
export function jsonInputTooLargeError(functionName: string, limit: number): JsonDecodeError {
  return new JsonDecodeError(
    functionName,
    `input exceeds the ${limit}-byte limit`,
    undefined,
    undefined,
  );
}
