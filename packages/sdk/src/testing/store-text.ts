import type { StoreText } from "../store";

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });
const FATAL_DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The number of UTF-8 bytes of a well-formed string. */
export function byteLength(text: string): number {
  return ENCODER.encode(text).length;
}

/** Whether `byte` is in [low, high]; a missing byte (-1) never is. */
function within(byte: number, low: number, high: number): boolean {
  return byte >= low && byte <= high;
}

/**
 * The number of leading bytes of `bytes` that are valid UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF); `bytes.length` when all are.
 */
function bytesValidUpTo(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i] ?? -1;
    if (b0 < 0x80) {
      i += 1;
      continue;
    }
    let length = 4;
    let low = 0x80;
    let high = 0xbf;
    if (within(b0, 0xc2, 0xdf)) length = 2;
    else if (within(b0, 0xe0, 0xef)) {
      length = 3;
      if (b0 === 0xe0) low = 0xa0;
      if (b0 === 0xed) high = 0x9f;
    } else if (within(b0, 0xf0, 0xf4)) {
      if (b0 === 0xf0) low = 0x90;
      if (b0 === 0xf4) high = 0x8f;
    } else return i;
    if (!within(bytes[i + 1] ?? -1, low, high)) return i;
    for (let k = 2; k < length; k++) {
      if (!within(bytes[i + k] ?? -1, 0x80, 0xbf)) return i;
    }
    i += length;
  }
  return i;
}

/** A StoreText that is valid UTF-8, as a string; or where it stops being valid. */
export type DecodedText =
  | { readonly ok: true; readonly text: string; readonly bytes: number }
  | { readonly ok: false; readonly validUpTo: number };

/** Checks and decodes a StoreText: bytes must be UTF-8, a string must hold no lone surrogate. */
export function decodeStoreText(value: StoreText): DecodedText {
  if (typeof value === "string") {
    const match = LONE_SURROGATE.exec(value);
    if (match !== null) return { ok: false, validUpTo: byteLength(value.slice(0, match.index)) };
    return { ok: true, text: value, bytes: byteLength(value) };
  }
  try {
    return { ok: true, text: FATAL_DECODER.decode(value), bytes: value.length };
  } catch {
    return { ok: false, validUpTo: bytesValidUpTo(value) };
  }
}

/** A StoreText for display: bytes that are not UTF-8 become U+FFFD. */
export function lossyText(value: StoreText): string {
  return typeof value === "string" ? value : DECODER.decode(value);
}

/** Compares well-formed strings by their UTF-8 bytes, which is code point order. */
export function compareBytewise(a: string, b: string): number {
  const order = (unit: number): number =>
    unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return order(x) - order(y);
  }
  return a.length - b.length;
}
