/**
 * The text-producing half of json.encode: compact JSON written as UTF-8 bytes.
 */

import { formatJsonNumber, nonFiniteText } from "./number-text";
import { utf8Step } from "./utf8";

const KIND_ARRAY = 1;
const KIND_OBJECT = 2;

const HEX_DIGITS = "0123456789abcdef";

/**
 * How each byte goes into a JSON string: 0 copied, 1 escaped, 2 starts a multi-byte sequence.
 * Escaped are `"`, `\` and U+0000–U+001F; `/`, DEL and everything else are written as is.
 */
const BYTE_CLASS = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) BYTE_CLASS[b] = 1;
BYTE_CLASS[0x22] = 1;
BYTE_CLASS[0x5c] = 1;
for (let b = 0x80; b < 0x100; b++) BYTE_CLASS[b] = 2;

/** The short escapes; other control bytes are written `\u00XX` with lowercase hex. */
const SHORT_ESCAPE = new Uint8Array(256);
SHORT_ESCAPE[0x22] = 0x22;
SHORT_ESCAPE[0x5c] = 0x5c;
SHORT_ESCAPE[0x08] = 0x62;
SHORT_ESCAPE[0x0c] = 0x66;
SHORT_ESCAPE[0x0a] = 0x6e;
SHORT_ESCAPE[0x0d] = 0x72;
SHORT_ESCAPE[0x09] = 0x74;

const utf8Decoder = new TextDecoder("utf-8");

/** Options of a {@link JsonWriter}. */
export interface JsonWriterOptions {
  /**
   * Debug mode: invalid UTF-8 is replaced with U+FFFD instead of refused, and NaN and the
   * infinities are written as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
   */
  readonly debug?: boolean;
  /** Initial size of the output buffer in bytes (it grows as needed). */
  readonly initialCapacity?: number;
}

/**
 * Writes compact JSON (no spaces) into a growing byte buffer, inserting the `,` and `:`
 * separators itself. Strings and keys are taken as bytes (a Lua string) or as JS strings.
 *
 * The caller drives the walk: it checks keys, sorts them bytewise (`sortKeysBytewise`),
 * tracks paths, depth, cycles and the size budget, and calls one method per value. Methods that
 * can refuse a value return `false` in strict mode (the default) and write something unusable:
 * the caller must then stop and raise its own error (the writer can be `reset()` and reused).
 * Misuse (a value where a key is due, an unbalanced end) throws an `Error`.
 *
 * Several top-level values may be written one per line with {@link JsonWriter.endRecord}
 * (JSON Lines: each record ends with `\n`).
 */
export class JsonWriter {
  /** Whether this writer substitutes instead of refusing (see {@link JsonWriterOptions.debug}). */
  readonly debug: boolean;
  private buf: Uint8Array;
  private len = 0;
  private readonly stack: number[] = [];
  private kind = 0;
  private first = true;
  private wantValue = false;
  private topDone = false;
  /** UTF-8 byte length of the last string or key written (what the byte budget counts). */
  lastStringBytes = 0;

  constructor(options: JsonWriterOptions = {}) {
    this.debug = options.debug === true;
    this.buf = new Uint8Array(options.initialCapacity ?? 1024);
  }

  /** Bytes written so far. */
  get byteLength(): number {
    return this.len;
  }

  /** The output so far, as a view of the internal buffer (valid until the next write). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /** The output so far, as a JS string. */
  text(): string {
    return utf8Decoder.decode(this.buf.subarray(0, this.len));
  }

  /** Forgets all output and state, keeping the buffer. */
  reset(): void {
    this.len = 0;
    this.stack.length = 0;
    this.kind = 0;
    this.first = true;
    this.wantValue = false;
    this.topDone = false;
  }

  /** `null`. */
  null(): void {
    this.beforeValue();
    this.ascii("null");
  }

  /** `true` or `false`. */
  boolean(value: boolean): void {
    this.beforeValue();
    this.ascii(value ? "true" : "false");
  }

  /** A Lua integer: a safe-integer JS number or a bigint in the 64-bit range. */
  integer(value: number | bigint): void {
    this.beforeValue();
    this.ascii(typeof value === "bigint" ? value.toString() : String(value === 0 ? 0 : value));
  }

  /**
   * A Lua float, by the chapter's rules (see `formatJsonNumber`): integral values in the
   * 64-bit range as integers, others as the shortest round-trip text. NaN and the infinities
   * return `false` in strict mode and become `"NaN"`, `"Infinity"`, `"-Infinity"` in debug mode.
   */
  float(value: number): boolean {
    const text = formatJsonNumber(value);
    if (text === undefined) {
      if (!this.debug) return false;
      this.string(nonFiniteText(value));
      return true;
    }
    this.beforeValue();
    this.ascii(text);
    return true;
  }

  /**
   * A string value. Returns `false` in strict mode when it is not valid UTF-8 (a JS string with
   * a lone surrogate counts as invalid); debug mode writes U+FFFD for each maximal invalid part.
   */
  string(value: Uint8Array | string): boolean {
    this.beforeValue();
    return typeof value === "string"
      ? this.writeJsString(value)
      : this.writeByteString(value, 0, value.length);
  }

  /**
   * A string value given as the bytes `source[start, end)`, with no view to allocate: a Lua
   * layer passes the wasm heap and the range `lua_tolstring` returned. Same rules as `string`.
   */
  stringBytes(source: Uint8Array, start: number, end: number): boolean {
    this.beforeValue();
    return this.writeByteString(source, start, end);
  }

  /** A member name followed by `:`; the next call must write its value. Same UTF-8 rule. */
  key(name: Uint8Array | string): boolean {
    this.beforeKey();
    const ok =
      typeof name === "string"
        ? this.writeJsString(name)
        : this.writeByteString(name, 0, name.length);
    this.byte(0x3a);
    this.wantValue = true;
    return ok;
  }

  /** A member name given as the bytes `source[start, end)` (see `stringBytes`). */
  keyBytes(source: Uint8Array, start: number, end: number): boolean {
    this.beforeKey();
    const ok = this.writeByteString(source, start, end);
    this.byte(0x3a);
    this.wantValue = true;
    return ok;
  }

  /**
   * A value copied from this writer's own output `[start, end)`: text an earlier call wrote as
   * one complete value (json.encode reuses the text of a table met again; see LuaJsonEncoder).
   */
  copyValue(start: number, end: number): void {
    this.beforeValue();
    const n = end - start;
    const buf = this.reserve(n);
    buf.copyWithin(this.len, start, end);
    this.len += n;
  }

  /** The byte at `index` of the output so far. */
  byteAt(index: number): number {
    return this.buf[index] ?? -1;
  }

  /** `[` */
  beginArray(): void {
    this.beforeValue();
    this.open(KIND_ARRAY, 0x5b);
  }

  /** `]` */
  endArray(): void {
    if (this.kind !== KIND_ARRAY) throw new Error("JsonWriter: endArray without an open array");
    this.close(0x5d);
  }

  /** `{` */
  beginObject(): void {
    this.beforeValue();
    this.open(KIND_OBJECT, 0x7b);
  }

  /** `}` */
  endObject(): void {
    if (this.kind !== KIND_OBJECT || this.wantValue) {
      throw new Error("JsonWriter: endObject without an open object awaiting a key");
    }
    this.close(0x7d);
  }

  /** Ends a complete top-level value with `\n` so another one can follow (JSON Lines). */
  endRecord(): void {
    if (this.kind !== 0 || !this.topDone) {
      throw new Error("JsonWriter: endRecord needs one complete top-level value");
    }
    this.byte(0x0a);
    this.topDone = false;
  }

  private beforeKey(): void {
    if (this.kind !== KIND_OBJECT || this.wantValue) {
      throw new Error("JsonWriter: a key is only allowed in an object, before each value");
    }
    if (this.first) this.first = false;
    else this.byte(0x2c);
  }

  private beforeValue(): void {
    if (this.kind === KIND_ARRAY) {
      if (this.first) this.first = false;
      else this.byte(0x2c);
    } else if (this.kind === KIND_OBJECT) {
      if (!this.wantValue) throw new Error("JsonWriter: an object member needs a key first");
      this.wantValue = false;
    } else {
      if (this.topDone) throw new Error("JsonWriter: one top-level value per record");
      this.topDone = true;
    }
  }

  private open(kind: number, bracket: number): void {
    this.stack.push(this.kind | (this.first ? 4 : 0));
    this.kind = kind;
    this.first = true;
    this.byte(bracket);
  }

  private close(bracket: number): void {
    this.byte(bracket);
    const saved = this.stack.pop() ?? 0;
    this.kind = saved & 3;
    this.first = (saved & 4) !== 0;
  }

  /** Makes room for `extra` more bytes and returns the (possibly new) buffer. */
  private reserve(extra: number): Uint8Array {
    const need = this.len + extra;
    if (need > this.buf.length) {
      let size = this.buf.length * 2;
      while (size < need) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    return this.buf;
  }

  private byte(b: number): void {
    const buf = this.reserve(1);
    buf[this.len++] = b;
  }

  private ascii(text: string): void {
    const n = text.length;
    const buf = this.reserve(n);
    let o = this.len;
    for (let i = 0; i < n; i++) buf[o++] = text.charCodeAt(i);
    this.len = o;
  }

  /** Writes `\X` or `\u00XX` for byte `c` at `o`; returns the new length. */
  private static escape(buf: Uint8Array, o: number, c: number): number {
    const short = SHORT_ESCAPE[c] as number;
    buf[o++] = 0x5c;
    if (short !== 0) {
      buf[o++] = short;
      return o;
    }
    buf[o++] = 0x75;
    buf[o++] = 0x30;
    buf[o++] = 0x30;
    buf[o++] = HEX_DIGITS.charCodeAt(c >> 4);
    buf[o++] = HEX_DIGITS.charCodeAt(c & 15);
    return o;
  }

  private writeByteString(s: Uint8Array, start: number, n: number): boolean {
    this.lastStringBytes = n - start;
    let buf = this.reserve(n - start + 2);
    let o = this.len;
    buf[o++] = 0x22;
    let run = start;
    let i = start;
    while (i < n) {
      const cls = BYTE_CLASS[s[i] as number] as number;
      if (cls === 0) {
        i++;
        continue;
      }
      if (cls === 2) {
        const step = utf8Step(s, i, n);
        if (step > 0) {
          i += step;
          continue;
        }
        if (!this.debug) {
          this.len = o;
          return false;
        }
      }
      // Flush the plain run [run, i), then write the escape or the replacement.
      if (i > run) {
        buf.set(s.subarray(run, i), o);
        o += i - run;
      }
      this.len = o;
      buf = this.reserve(6 + (n - i) + 1);
      if (cls === 1) {
        o = JsonWriter.escape(buf, o, s[i] as number);
        i++;
      } else {
        buf[o++] = 0xef;
        buf[o++] = 0xbf;
        buf[o++] = 0xbd;
        i -= utf8Step(s, i, n);
      }
      run = i;
    }
    if (n > run) {
      buf.set(s.subarray(run, n), o);
      o += n - run;
    }
    buf[o++] = 0x22;
    this.len = o;
    return true;
  }

  private writeJsString(s: string): boolean {
    const n = s.length;
    let buf = this.reserve(n * 3 + 2);
    let o = this.len;
    buf[o++] = 0x22;
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        bytes++;
        if (BYTE_CLASS[c] === 0) {
          buf[o++] = c;
        } else {
          this.len = o;
          buf = this.reserve(6 + (n - i) * 3 + 1);
          o = JsonWriter.escape(buf, o, c);
        }
      } else if (c < 0x800) {
        bytes += 2;
        buf[o++] = 0xc0 | (c >> 6);
        buf[o++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const low = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          i++;
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          bytes += 4;
          buf[o++] = 0xf0 | (c >> 18);
          buf[o++] = 0x80 | ((c >> 12) & 0x3f);
          buf[o++] = 0x80 | ((c >> 6) & 0x3f);
          buf[o++] = 0x80 | (c & 0x3f);
        } else {
          if (!this.debug) {
            this.len = o;
            this.lastStringBytes = bytes;
            return false;
          }
          bytes += 3;
          buf[o++] = 0xef;
          buf[o++] = 0xbf;
          buf[o++] = 0xbd;
        }
      } else {
        bytes += 3;
        buf[o++] = 0xe0 | (c >> 12);
        buf[o++] = 0x80 | ((c >> 6) & 0x3f);
        buf[o++] = 0x80 | (c & 0x3f);
      }
    }
    buf[o++] = 0x22;
    this.len = o;
    this.lastStringBytes = bytes;
    return true;
  }
}
