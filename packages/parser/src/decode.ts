import { errorAtLine } from "./errors";
import type { PromptParseError } from "./types";

/** The decoded prompt text, or an Encoding error. */
export type DecodeResult = { ok: true; text: string } | { ok: false; error: PromptParseError };

const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Turns the prompt input into text: bytes must be UTF-8 and a string must be well-formed UTF-16
 * (no lone surrogates). A leading byte order mark is dropped. Line endings are left as they are.
 * Never throws: any other input, bad bytes and lone surrogates give an Encoding error naming the
 * line of the first bad byte or code unit.
 */
export function decodePromptInput(input: unknown): DecodeResult {
  if (typeof input === "string") return decodeString(input);
  if (input instanceof Uint8Array) return decodeBytes(input);
  return {
    ok: false,
    error: {
      kind: "Encoding",
      message: `expected the prompt as a string or UTF-8 bytes, got ${describeInput(input)}`,
    },
  };
}

function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  return typeof input === "object" ? "an object" : `a ${typeof input}`;
}

function decodeString(input: string): DecodeResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const bad = firstLoneSurrogate(text);
  if (bad === -1) return { ok: true, text };
  return {
    ok: false,
    error: errorAtLine(
      "Encoding",
      "the prompt text is not valid Unicode: it holds a lone surrogate",
      lineAtIndex(text, bad, (s, i) => s.charCodeAt(i)),
    ),
  };
}

function decodeBytes(input: Uint8Array): DecodeResult {
  const hasBom = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
  const bytes = hasBom ? input.subarray(3) : input;
  try {
    return { ok: true, text: fatalDecoder.decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const index = bad === -1 ? 0 : bad;
    const byte = bytes[index] ?? 0;
    return {
      ok: false,
      error: errorAtLine(
        "Encoding",
        `the prompt is not valid UTF-8: byte 0x${hex(byte)} does not start a valid UTF-8 sequence`,
        lineAtIndex(bytes, index, (b, i) => b[i] ?? 0),
      ),
    };
  }
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, "0").toUpperCase();
}

/** 1-based line of position `index`, counting LF, CRLF and lone CR as line breaks. */
function lineAtIndex<T>(
  source: T,
  index: number,
  unitAt: (source: T, i: number) => number,
): number {
  let line = 1;
  for (let i = 0; i < index; i++) {
    const unit = unitAt(source, i);
    if (unit === 0x0a) line++;
    else if (unit === 0x0d && unitAt(source, i + 1) !== 0x0a) line++;
  }
  return line;
}

/** Index of the first code unit that is a lone surrogate, or -1. */
export function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/**
 * Index of the first byte where the UTF-8 decoding of `bytes` fails (a byte that cannot start a
 * sequence, a missing or bad continuation byte, an overlong form, a surrogate, a code point past
 * U+10FFFF, or a sequence cut off at the end), or -1 when the bytes are valid UTF-8.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const shape = sequenceShape(lead);
    if (shape === undefined) return i;
    for (let k = 1; k <= shape.continuation; k++) {
      const byte = bytes[i + k];
      const low = k === 1 ? shape.secondLow : 0x80;
      const high = k === 1 ? shape.secondHigh : 0xbf;
      if (byte === undefined || byte < low || byte > high) return i;
    }
    i += shape.continuation + 1;
  }
  return -1;
}

/** How many continuation bytes follow `lead`, and the allowed range of the first of them. */
function sequenceShape(
  lead: number,
): { continuation: number; secondLow: number; secondHigh: number } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { continuation: 1, secondLow: 0x80, secondHigh: 0xbf };
  if (lead === 0xe0) return { continuation: 2, secondLow: 0xa0, secondHigh: 0xbf }; // no overlongs
  if (lead === 0xed) return { continuation: 2, secondLow: 0x80, secondHigh: 0x9f }; // no surrogates
  if (lead >= 0xe1 && lead <= 0xef) return { continuation: 2, secondLow: 0x80, secondHigh: 0xbf };
  if (lead === 0xf0) return { continuation: 3, secondLow: 0x90, secondHigh: 0xbf }; // no overlongs
  if (lead >= 0xf1 && lead <= 0xf3) return { continuation: 3, secondLow: 0x80, secondHigh: 0xbf };
  if (lead === 0xf4) return { continuation: 3, secondLow: 0x80, secondHigh: 0x8f }; // <= U+10FFFF
  return undefined;
}
