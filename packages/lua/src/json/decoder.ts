/**
 * The JSON text decoder behind json.decode and json.decode_lines: validates RFC 8259 text byte
 * by byte and streams it to a {@link JsonSink}. Iterative (an explicit stack of at most
 * `maxDepth` containers), so no input can hang it or overflow the JS stack.
 */

import { type JsonSyntaxReason, jsonInputTooLargeError, jsonSyntaxError } from "./decode-error";
import { JSON_DECODE_LIMITS, type JsonDecodeLimits } from "./limits";
import type { JsonSink } from "./sink";
import { utf8Step } from "./utf8";

const ARRAY = 1;
const OBJECT = 2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/** 1 for the JSON whitespace bytes: space, tab, line feed, carriage return. */
const WHITESPACE = new Uint8Array(256);
WHITESPACE[0x20] = 1;
WHITESPACE[0x09] = 1;
WHITESPACE[0x0a] = 1;
WHITESPACE[0x0d] = 1;

/** 1 for bytes a string's fast scan stops at: controls, `"`, `\` and every byte >= 0x80. */
const STRING_STOP = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  if (b < 0x20 || b === QUOTE || b === BACKSLASH || b >= 0x80) STRING_STOP[b] = 1;
}

/** Value of a hex digit byte, or 255. */
const HEX = new Uint8Array(256).fill(255);
for (let d = 0; d < 10; d++) HEX[DIGIT_0 + d] = d;
for (let d = 0; d < 6; d++) {
  HEX[0x41 + d] = 10 + d;
  HEX[0x61 + d] = 10 + d;
}

/** Exact powers of ten for the fast float path (10^22 is the largest exact double power). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

const INT64_MAX_TEXT = "9223372036854775807";
const INT64_MIN_ABS_TEXT = "9223372036854775808";

const latin1 = new TextDecoder("latin1");

/** ASCII text of `bytes[start, end)` (the bytes are known to be ASCII). */
function asciiSlice(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 64) return latin1.decode(bytes.subarray(start, end));
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i] as number);
  return s;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= DIGIT_0 && c <= DIGIT_9;
}

/** May a number or literal in JSON Lines be followed directly by this byte (serde's rule)? */
function endsBareValue(c: number): boolean {
  return (
    WHITESPACE[c] === 1 ||
    c === QUOTE ||
    c === OPEN_BRACKET ||
    c === CLOSE_BRACKET ||
    c === OPEN_BRACE ||
    c === CLOSE_BRACE ||
    c === COMMA ||
    c === COLON
  );
}

class JsonParser {
  private readonly text: Uint8Array;
  private readonly n: number;
  private readonly sink: JsonSink;
  private readonly functionName: string;
  private readonly maxDepth: number;
  private readonly kinds: Uint8Array;
  private scratch: Uint8Array = new Uint8Array(256);
  pos = 0;

  constructor(text: Uint8Array, sink: JsonSink, limits: JsonDecodeLimits, functionName: string) {
    this.text = text;
    this.n = text.length;
    this.sink = sink;
    this.functionName = functionName;
    this.maxDepth = limits.maxDepth;
    this.kinds = new Uint8Array(limits.maxDepth + 1);
  }

  fail(reason: JsonSyntaxReason, index: number): never {
    throw jsonSyntaxError(this.functionName, this.text, reason, index);
  }

  skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    while (pos < this.n && WHITESPACE[text[pos] as number] === 1) pos++;
    this.pos = pos;
  }

  /** Parses one complete value starting at `pos` (whitespace skipped); leaves `pos` after it. */
  parseValue(): void {
    const text = this.text;
    const n = this.n;
    const sink = this.sink;
    const kinds = this.kinds;
    let depth = 0;
    for (;;) {
      // A value is expected at this.pos (whitespace already skipped).
      let pos = this.pos;
      if (pos >= n) this.fail("EOF while parsing a value", n);
      let c = text[pos] as number;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (depth >= this.maxDepth) this.fail("recursion limit exceeded", pos);
        this.pos = pos + 1;
        this.skipWhitespace();
        pos = this.pos;
        if (c === OPEN_BRACKET) {
          sink.beginArray();
          if (pos >= n) this.fail("EOF while parsing a list", n);
          if (text[pos] === CLOSE_BRACKET) {
            this.pos = pos + 1;
            sink.endArray();
          } else {
            kinds[++depth] = ARRAY;
            continue;
          }
        } else {
          sink.beginObject();
          if (pos >= n) this.fail("EOF while parsing an object", n);
          c = text[pos] as number;
          if (c === CLOSE_BRACE) {
            this.pos = pos + 1;
            sink.endObject();
          } else {
            if (c !== QUOTE) this.fail("key must be a string", pos);
            kinds[++depth] = OBJECT;
            this.parseMemberName();
            continue;
          }
        }
      } else if (c === QUOTE) {
        this.parseString(false);
      } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
        this.parseNumber();
      } else if (c === 0x74) {
        this.parseLiteral("true");
        sink.boolean(true);
      } else if (c === 0x66) {
        this.parseLiteral("false");
        sink.boolean(false);
      } else if (c === 0x6e) {
        this.parseLiteral("null");
        sink.null();
      } else {
        this.fail("expected value", pos);
      }

      // A value just ended: close containers until one wants another item.
      for (;;) {
        if (depth === 0) return;
        this.skipWhitespace();
        pos = this.pos;
        if (pos >= n) {
          this.fail(
            kinds[depth] === ARRAY ? "EOF while parsing a list" : "EOF while parsing an object",
            n,
          );
        }
        c = text[pos] as number;
        if (kinds[depth] === ARRAY) {
          if (c === CLOSE_BRACKET) {
            this.pos = pos + 1;
            depth--;
            sink.endArray();
            continue;
          }
          if (c !== COMMA) this.fail("expected `,` or `]`", pos);
          this.pos = pos + 1;
          this.skipWhitespace();
          if (this.pos < n && text[this.pos] === CLOSE_BRACKET)
            this.fail("trailing comma", this.pos);
          break;
        }
        if (c === CLOSE_BRACE) {
          this.pos = pos + 1;
          depth--;
          sink.endObject();
          continue;
        }
        if (c !== COMMA) this.fail("expected `,` or `}`", pos);
        this.pos = pos + 1;
        this.skipWhitespace();
        pos = this.pos;
        if (pos >= n) this.fail("EOF while parsing a value", n);
        c = text[pos] as number;
        if (c === CLOSE_BRACE) this.fail("trailing comma", pos);
        if (c !== QUOTE) this.fail("key must be a string", pos);
        this.parseMemberName();
        break;
      }
    }
  }

  /** Parses `"name"` and the `:` after it, leaving `pos` at the member's value. */
  parseMemberName(): void {
    this.parseString(true);
    this.skipWhitespace();
    const pos = this.pos;
    if (pos >= this.n) this.fail("EOF while parsing an object", this.n);
    if (this.text[pos] !== COLON) this.fail("expected `:`", pos);
    this.pos = pos + 1;
    this.skipWhitespace();
  }

  parseLiteral(word: string): void {
    const text = this.text;
    let pos = this.pos + 1;
    for (let k = 1; k < word.length; k++, pos++) {
      if (pos >= this.n) this.fail("EOF while parsing a value", this.n);
      if (text[pos] !== word.charCodeAt(k)) this.fail("expected ident", pos);
    }
    this.pos = pos;
  }

  parseNumber(): void {
    const text = this.text;
    const n = this.n;
    const start = this.pos;
    let pos = start;
    const negative = text[pos] === MINUS;
    if (negative) pos++;
    if (pos >= n) this.fail("EOF while parsing a value", n);
    const intStart = pos;
    let c = text[pos] as number;
    if (c === DIGIT_0) {
      pos++;
      if (isDigit(text[pos])) this.fail("invalid number", pos);
    } else if (c > DIGIT_0 && c <= DIGIT_9) {
      pos++;
      while (pos < n && isDigit(text[pos])) pos++;
    } else {
      this.fail("invalid number", pos);
    }
    const intEnd = pos;
    let fracEnd = pos;
    let isFloat = false;
    let expStart = -1;
    if (pos < n && text[pos] === 0x2e) {
      isFloat = true;
      pos++;
      if (pos >= n) this.fail("EOF while parsing a value", n);
      if (!isDigit(text[pos])) this.fail("invalid number", pos);
      while (pos < n && isDigit(text[pos])) pos++;
      fracEnd = pos;
    }
    c = text[pos] as number;
    if (pos < n && (c === 0x65 || c === 0x45)) {
      isFloat = true;
      pos++;
      c = text[pos] as number;
      if (pos < n && (c === 0x2b || c === MINUS)) pos++;
      if (pos >= n) this.fail("EOF while parsing a value", n);
      if (!isDigit(text[pos])) this.fail("invalid number", pos);
      expStart = pos;
      while (pos < n && isDigit(text[pos])) pos++;
    }
    this.pos = pos;

    const intDigits = intEnd - intStart;
    if (!isFloat) {
      if (intDigits <= 15) {
        let v = 0;
        for (let i = intStart; i < intEnd; i++) v = v * 10 + ((text[i] as number) - DIGIT_0);
        this.sink.integer(negative && v !== 0 ? -v : v);
        return;
      }
      if (intDigits <= 19) {
        const digits = asciiSlice(text, intStart, intEnd);
        const limit = negative ? INT64_MIN_ABS_TEXT : INT64_MAX_TEXT;
        if (intDigits < 19 || digits <= limit) {
          const big = BigInt(negative ? `-${digits}` : digits);
          const small = Number(big);
          this.sink.integer(Number.isSafeInteger(small) ? small : big);
          return;
        }
      }
      // Past the 64-bit range: a float, like every other number.
    }

    let value = Number.NaN;
    // Fast exact path: at most 15 significant digits and a power of ten that is exact.
    if (intDigits + (fracEnd - intEnd) <= 16) {
      let m = 0;
      for (let i = intStart; i < intEnd; i++) m = m * 10 + ((text[i] as number) - DIGIT_0);
      let scale = 0;
      for (let i = intEnd + 1; i < fracEnd; i++) {
        m = m * 10 + ((text[i] as number) - DIGIT_0);
        scale--;
      }
      let exp = 0;
      let expOk = true;
      if (expStart >= 0) {
        if (pos - expStart > 3) expOk = false;
        for (let i = expStart; i < pos; i++) exp = exp * 10 + ((text[i] as number) - DIGIT_0);
        if (text[expStart - 1] === MINUS) exp = -exp;
      }
      const total = scale + exp;
      if (expOk && m <= 999_999_999_999_999 && total >= -22 && total <= 22) {
        value = total >= 0 ? m * (POW10[total] as number) : m / (POW10[-total] as number);
        if (negative) value = -value;
      }
    }
    if (Number.isNaN(value)) value = Number(asciiSlice(text, start, pos));
    if (!Number.isFinite(value)) this.fail("number out of range", pos - 1);
    this.sink.float(value);
  }

  /** Parses the string at `pos` (its opening quote) and hands it to the sink. */
  parseString(isKey: boolean): void {
    const text = this.text;
    const n = this.n;
    const start = this.pos + 1;
    let pos = start;
    let badUtf8 = false;
    for (;;) {
      if (pos >= n) this.fail("EOF while parsing a string", n);
      const c = text[pos] as number;
      if (STRING_STOP[c] === 0) {
        pos++;
        continue;
      }
      if (c === QUOTE) {
        if (badUtf8) this.fail("invalid unicode code point", pos);
        this.pos = pos + 1;
        if (isKey) this.sink.key(text, start, pos);
        else this.sink.string(text, start, pos);
        return;
      }
      if (c === BACKSLASH) break;
      if (c < 0x20)
        this.fail("control character (\\u0000-\\u001F) found while parsing a string", pos);
      const step = utf8Step(text, pos, n);
      if (step > 0) {
        pos += step;
      } else {
        badUtf8 = true;
        pos -= step;
      }
    }
    this.parseEscapedString(isKey, start, pos, badUtf8);
  }

  /** The slow path of {@link parseString}, from the first backslash at `pos`. */
  parseEscapedString(isKey: boolean, start: number, firstEscape: number, badUtf8In: boolean): void {
    const text = this.text;
    const n = this.n;
    let badUtf8 = badUtf8In;
    // Unescaped text is never longer than its source, so this scratch size always suffices.
    if (this.scratch.length < n - start) {
      this.scratch = new Uint8Array(Math.max(n - start, this.scratch.length * 2));
    }
    const out = this.scratch;
    out.set(text.subarray(start, firstEscape), 0);
    let o = firstEscape - start;
    let pos = firstEscape;
    for (;;) {
      if (pos >= n) this.fail("EOF while parsing a string", n);
      const c = text[pos] as number;
      if (STRING_STOP[c] === 0) {
        out[o++] = c;
        pos++;
        continue;
      }
      if (c === QUOTE) {
        if (badUtf8) this.fail("invalid unicode code point", pos);
        this.pos = pos + 1;
        if (isKey) this.sink.key(out, 0, o);
        else this.sink.string(out, 0, o);
        return;
      }
      if (c === BACKSLASH) {
        pos++;
        if (pos >= n) this.fail("EOF while parsing a string", n);
        const e = text[pos] as number;
        pos++;
        switch (e) {
          case QUOTE:
          case BACKSLASH:
          case 0x2f:
            out[o++] = e;
            break;
          case 0x62:
            out[o++] = 0x08;
            break;
          case 0x66:
            out[o++] = 0x0c;
            break;
          case 0x6e:
            out[o++] = 0x0a;
            break;
          case 0x72:
            out[o++] = 0x0d;
            break;
          case 0x74:
            out[o++] = 0x09;
            break;
          case 0x75: {
            let cp = this.hex4(pos);
            pos += 4;
            if (cp >= 0xdc00 && cp <= 0xdfff)
              this.fail("lone leading surrogate in hex escape", pos - 1);
            if (cp >= 0xd800 && cp <= 0xdbff) {
              if (pos >= n) this.fail("EOF while parsing a string", n);
              if (text[pos] !== BACKSLASH) this.fail("unexpected end of hex escape", pos);
              pos++;
              if (pos >= n) this.fail("EOF while parsing a string", n);
              if (text[pos] !== 0x75) this.fail("unexpected end of hex escape", pos);
              pos++;
              const low = this.hex4(pos);
              pos += 4;
              if (low < 0xdc00 || low > 0xdfff)
                this.fail("lone leading surrogate in hex escape", pos - 1);
              cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            }
            o = writeCodePoint(out, o, cp);
            break;
          }
          default:
            this.fail("invalid escape", pos - 1);
        }
        continue;
      }
      if (c < 0x20)
        this.fail("control character (\\u0000-\\u001F) found while parsing a string", pos);
      const step = utf8Step(text, pos, n);
      const len = step > 0 ? step : -step;
      if (step < 0) badUtf8 = true;
      for (let k = 0; k < len; k++) out[o++] = text[pos + k] as number;
      pos += len;
    }
  }

  /** The four hex digits at `pos` of a `\u` escape. */
  hex4(pos: number): number {
    if (pos + 4 > this.n) this.fail("EOF while parsing a string", this.n);
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const d = HEX[this.text[pos + k] as number] as number;
      if (d === 255) this.fail("invalid escape", pos + k);
      v = (v << 4) | d;
    }
    return v;
  }
}

/** Writes code point `cp` (not a surrogate) as UTF-8 at `out[o]`; returns the new length. */
function writeCodePoint(out: Uint8Array, o: number, cp: number): number {
  if (cp < 0x80) {
    out[o] = cp;
    return o + 1;
  }
  if (cp < 0x800) {
    out[o] = 0xc0 | (cp >> 6);
    out[o + 1] = 0x80 | (cp & 0x3f);
    return o + 2;
  }
  if (cp < 0x10000) {
    out[o] = 0xe0 | (cp >> 12);
    out[o + 1] = 0x80 | ((cp >> 6) & 0x3f);
    out[o + 2] = 0x80 | (cp & 0x3f);
    return o + 3;
  }
  out[o] = 0xf0 | (cp >> 18);
  out[o + 1] = 0x80 | ((cp >> 12) & 0x3f);
  out[o + 2] = 0x80 | ((cp >> 6) & 0x3f);
  out[o + 3] = 0x80 | (cp & 0x3f);
  return o + 4;
}

/**
 * Decodes the one JSON document in `text` and streams it to `sink`, as json.decode does.
 *
 * Leading and trailing JSON whitespace (space, tab, LF, CR) is allowed; anything else after the
 * document raises `trailing characters`. Text longer than `limits.maxInputBytes` is refused
 * before parsing. Errors are {@link JsonDecodeError}s whose message starts with `functionName`.
 *
 * `text` is read during the whole call, so it must not be a view of memory that can be detached
 * meanwhile (a wasm heap view whose memory grows when the sink allocates): copy it first.
 */
export function decodeJson(
  text: Uint8Array,
  sink: JsonSink,
  limits: JsonDecodeLimits = JSON_DECODE_LIMITS,
  functionName = "json.decode",
): void {
  if (text.length > limits.maxInputBytes) {
    throw jsonInputTooLargeError(functionName, limits.maxInputBytes);
  }
  const parser = new JsonParser(text, sink, limits, functionName);
  parser.skipWhitespace();
  parser.parseValue();
  parser.skipWhitespace();
  if (parser.pos < text.length) parser.fail("trailing characters", parser.pos);
}

/**
 * Decodes every JSON value in `text`, as json.decode_lines does, streaming them to `sink` as the
 * items of one array: `beginArray()`, each value, `endArray()` (the wrapper does not count toward
 * the nesting limit). Any whitespace separates values and blank text gives an empty array. Line
 * and column count across the whole text.
 *
 * Like serde_json's stream reader, a value that ends in `]`, `}` or `"` may be followed directly
 * by the next value, while a number or `true`/`false`/`null` must be followed by whitespace, the
 * end of the text, or one of `"[]{},:` (so `12` is one number and `truefalse` is refused with
 * `trailing characters`).
 */
export function decodeJsonLines(
  text: Uint8Array,
  sink: JsonSink,
  limits: JsonDecodeLimits = JSON_DECODE_LIMITS,
  functionName = "json.decode_lines",
): void {
  if (text.length > limits.maxInputBytes) {
    throw jsonInputTooLargeError(functionName, limits.maxInputBytes);
  }
  const parser = new JsonParser(text, sink, limits, functionName);
  sink.beginArray();
  for (;;) {
    parser.skipWhitespace();
    if (parser.pos >= text.length) break;
    const first = text[parser.pos] as number;
    parser.parseValue();
    const bare = first !== OPEN_BRACKET && first !== OPEN_BRACE && first !== QUOTE;
    if (bare && parser.pos < text.length && !endsBareValue(text[parser.pos] as number)) {
      parser.fail("trailing characters", parser.pos);
    }
  }
  sink.endArray();
}
