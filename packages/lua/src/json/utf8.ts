/**
 * Byte-level UTF-8 helpers shared by the JSON decoder and writer.
 *
 * Lua strings are byte strings, so everything here works on `Uint8Array`. Validity follows
 * RFC 3629 (no overlong forms, no surrogates U+D800–U+DFFF, nothing above U+10FFFF), and the
 * replacement of invalid bytes follows the WHATWG "maximal subpart" rule, which is what
 * `TextDecoder` and Rust's `String::from_utf8_lossy` do.
 */

const lossyDecoder = new TextDecoder("utf-8");

/**
 * Steps over one UTF-8 sequence starting at `bytes[i]` (with `i < end`).
 *
 * Returns the sequence length (1 to 4) when the sequence is valid. When it is not, returns the
 * negated length of its maximal subpart (-1 to -3): the bytes that one replacement character
 * stands for.
 */
export function utf8Step(bytes: Uint8Array, i: number, end: number): number {
  const lead = bytes[i] as number;
  if (lead < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    need = 1;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) lo = 0xa0;
    else if (lead === 0xed) hi = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) lo = 0x90;
    else if (lead === 0xf4) hi = 0x8f;
  } else {
    return -1;
  }
  let j = i + 1;
  for (let k = 0; k < need; k++, j++) {
    if (j >= end) return i - j;
    const next = bytes[j] as number;
    if (next < lo || next > hi) return i - j;
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}

/** Index of the first byte that starts an invalid UTF-8 sequence, or `bytes.length` when all valid. */
export function utf8ValidUpTo(bytes: Uint8Array): number {
  const end = bytes.length;
  let i = 0;
  while (i < end) {
    if ((bytes[i] as number) < 0x80) {
      i++;
      continue;
    }
    const step = utf8Step(bytes, i, end);
    if (step < 0) return i;
    i += step;
  }
  return end;
}

/** True when `bytes` is valid UTF-8. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return utf8ValidUpTo(bytes) === bytes.length;
}

/**
 * Decodes `bytes` as UTF-8, replacing each maximal invalid subpart with U+FFFD.
 * Used for paths in error messages and for debug-mode text.
 */
export function decodeUtf8Lossy(bytes: Uint8Array): string {
  return lossyDecoder.decode(bytes);
}

/** Bytewise comparison of two byte strings: negative, zero or positive, like `memcmp` then length. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Maps a UTF-16 code unit so that code-unit order equals code-point (and UTF-8 byte) order. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Compares two JS strings in the order their UTF-8 encodings compare bytewise (code-point order).
 * Plain `<` on JS strings compares UTF-16 code units, which puts U+E000–U+FFFF after astral
 * characters; this does not.
 */
export function compareUtf8Order(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Sorts byte-string keys bytewise, in place, and returns the same array. */
export function sortKeysBytewise(keys: Uint8Array[]): Uint8Array[] {
  return keys.sort(compareBytes);
}
