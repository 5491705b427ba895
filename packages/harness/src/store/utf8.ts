import { Buffer, isUtf8 } from "node:buffer";
import type { StoreText } from "@runvil/sdk";

/** Matches a lone surrogate: in `u` mode a well-formed pair is one code point above U+FFFF. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The byte at `index`, or -1 past the end (so a truncated sequence fails its range check). */
function byteAt(bytes: Uint8Array, index: number): number {
  return bytes[index] ?? -1;
}

/** Whether `byte` is in [low, high]. */
function within(byte: number, low: number, high: number): boolean {
  return byte >= low && byte <= high;
}

/**
 * The number of leading bytes of `bytes` that are valid UTF-8 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF); `bytes.length` when
 * all are. A truncated sequence at the end is invalid from its first byte.
 */
export function utf8ValidUpTo(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return bytes.length;
  let i = 0;
  while (i < bytes.length) {
    const b0 = byteAt(bytes, i);
    if (b0 < 0x80) {
      i += 1;
      continue;
    }
    const b1 = byteAt(bytes, i + 1);
    let length: number;
    let secondLow = 0x80;
    let secondHigh = 0xbf;
    if (within(b0, 0xc2, 0xdf)) length = 2;
    else if (within(b0, 0xe0, 0xef)) {
      length = 3;
      if (b0 === 0xe0) secondLow = 0xa0;
      if (b0 === 0xed) secondHigh = 0x9f;
    } else if (within(b0, 0xf0, 0xf4)) {
      length = 4;
      if (b0 === 0xf0) secondLow = 0x90;
      if (b0 === 0xf4) secondHigh = 0x8f;
    } else return i;
    if (!within(b1, secondLow, secondHigh)) return i;
    for (let k = 2; k < length; k++) {
      if (!within(byteAt(bytes, i + k), 0x80, 0xbf)) return i;
    }
    i += length;
  }
  return i;
}

/**
 * The number of UTF-8 bytes before the first lone surrogate of `text`, or
 * undefined when `text` is well formed (every string without one encodes to
 * valid UTF-8).
 */
export function stringValidUpTo(text: string): number | undefined {
  const match = LONE_SURROGATE.exec(text);
  if (match === null) return undefined;
  return Buffer.byteLength(text.slice(0, match.index), "utf8");
}

/** Text that passed the UTF-8 check, with its size in UTF-8 bytes. */
export interface CheckedText {
  /** The text as given: a well-formed string or valid UTF-8 bytes. */
  readonly value: string | Uint8Array;
  /** Its length in UTF-8 bytes. */
  readonly byteLength: number;
}

/** The outcome of checkUtf8: the checked text, or where it stops being valid. */
export type Utf8Check =
  | { readonly ok: true; readonly text: CheckedText }
  | { readonly ok: false; readonly validUpTo: number };

/** Checks that `value` is valid UTF-8 (bytes) or encodes to it (a string without lone surrogates). */
export function checkUtf8(value: StoreText): Utf8Check {
  if (typeof value === "string") {
    const validUpTo = stringValidUpTo(value);
    if (validUpTo !== undefined) return { ok: false, validUpTo };
    return { ok: true, text: { value, byteLength: Buffer.byteLength(value, "utf8") } };
  }
  const validUpTo = utf8ValidUpTo(value);
  if (validUpTo !== value.length) return { ok: false, validUpTo };
  return { ok: true, text: { value, byteLength: value.length } };
}

const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });

/** The checked text as a string (decodes bytes; a BOM is kept as U+FEFF). */
export function textAsString(text: CheckedText): string {
  return typeof text.value === "string" ? text.value : DECODER.decode(text.value);
}

/** The checked text as UTF-8 bytes (encodes a string; bytes are returned as they are). */
export function textAsBytes(text: CheckedText): Uint8Array {
  return typeof text.value === "string" ? Buffer.from(text.value, "utf8") : text.value;
}

/** Decodes `value` for display: bytes that are not UTF-8 become U+FFFD, a BOM is kept. */
export function lossyText(value: StoreText): string {
  return typeof value === "string" ? value : DECODER.decode(value);
}
