/**
 * The callbacks the decoder streams a document to.
 */

/**
 * Receives one decoded document as a stream of events, in text order, only after each token is
 * validated. An object is `beginObject`, then `key` + one value per member, then `endObject`;
 * an array is `beginArray`, its values, `endArray`. Duplicate keys are all delivered, in order,
 * so a sink that assigns keeps the last one.
 *
 * A string or key arrives as `source[start, end)` with no allocation. `source` is the input text
 * itself when the string holds no escape (so a Lua sink that has the text in wasm memory at
 * `ptr` can push `ptr + start` without copying), and otherwise a scratch buffer the decoder
 * reuses: read it before the callback returns, never keep it.
 *
 * Anything a callback throws propagates unchanged (a Lua memory error stays a memory error).
 */
export interface JsonSink {
  /** `{` — an object begins. */
  beginObject(): void;
  /** A member name, valid UTF-8: the bytes `source[start, end)`. */
  key(source: Uint8Array, start: number, end: number): void;
  /** `}` — the innermost object ends. */
  endObject(): void;
  /** `[` — an array begins. */
  beginArray(): void;
  /** `]` — the innermost array ends. */
  endArray(): void;
  /** A string value, valid UTF-8 (NUL bytes from `\u0000` included): `source[start, end)`. */
  string(source: Uint8Array, start: number, end: number): void;
  /**
   * A number written without fraction or exponent whose value is in the 64-bit integer range:
   * a JS number when it is a safe integer (|v| <= 2^53 - 1), a bigint otherwise. `-0` is 0.
   */
  integer(value: number | bigint): void;
  /** Any other number (`1.0`, `1e2`, `9223372036854775808`): a finite float. */
  float(value: number): void;
  /** `true` or `false`. */
  boolean(value: boolean): void;
  /** `null`. */
  null(): void;
}
