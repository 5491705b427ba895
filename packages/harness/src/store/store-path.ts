import { Buffer } from "node:buffer";
import type { StoreText } from "@runvil/sdk";
import { invalidPath } from "./failures";
import { MAX_PATH_BYTES, MAX_PATTERN_BYTES, MAX_SEGMENT_BYTES, TEMP_FILE_PREFIX } from "./limits";
import { checkUtf8, lossyText, textAsString } from "./utf8";

/** The `invalid_path` detail texts, in the order the checks run. */
export const PATH_DETAILS = Object.freeze({
  notUtf8: "not valid UTF-8",
  empty: "the path is empty",
  tooLong: `longer than ${MAX_PATH_BYTES} bytes`,
  absolute: "absolute paths are not allowed",
  emptySegment: "empty segment",
  dotSegment: "'.' and '..' segments are not allowed",
  control: "control characters are not allowed",
  backslash: "backslashes are not allowed",
  segmentTooLong: `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`,
  reserved: `names starting with ${TEMP_FILE_PREFIX} are reserved`,
});

/** A valid store path and its segments. */
export interface StorePath {
  /** The path text. */
  readonly path: string;
  /** The path split at `/`; never empty, no segment empty. */
  readonly segments: readonly string[];
}

/** The outcome of checkStorePath: the path, or the caller's text with the first failure's detail. */
export type StorePathCheck =
  | { readonly ok: true; readonly value: StorePath }
  | { readonly ok: false; readonly path: string; readonly detail: string };

/** Whether the code unit is a control character: U+0000-U+001F or U+007F-U+009F. */
export function isControlUnit(unit: number): boolean {
  return unit < 0x20 || (unit >= 0x7f && unit <= 0x9f);
}

/**
 * The detail for the first bad character of `segment`, or undefined.
 * `backslashAllowed` is true in glob patterns, where `\` is the escape.
 */
export function segmentCharacterDetail(
  segment: string,
  backslashAllowed: boolean,
): string | undefined {
  for (let i = 0; i < segment.length; i++) {
    const unit = segment.charCodeAt(i);
    if (isControlUnit(unit)) return PATH_DETAILS.control;
    if (unit === 0x5c && !backslashAllowed) return PATH_DETAILS.backslash;
  }
  return undefined;
}

/**
 * Why `segment` cannot be one segment of a store path, or undefined when it
 * can. Used for names found on disk too, so a directory store lists only
 * files whose names a path could name.
 */
export function segmentDetail(segment: string): string | undefined {
  if (segment === "") return PATH_DETAILS.emptySegment;
  if (segment === "." || segment === "..") return PATH_DETAILS.dotSegment;
  const character = segmentCharacterDetail(segment, false);
  if (character !== undefined) return character;
  if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES) return PATH_DETAILS.segmentTooLong;
  if (segment.startsWith(TEMP_FILE_PREFIX)) return PATH_DETAILS.reserved;
  return undefined;
}

/**
 * Checks `input` against the path grammar (docs/design/store.md, "Paths"):
 * relative, `/`-separated, no empty, `.` or `..` segment, no control
 * character or backslash, valid UTF-8, at most 1024 bytes and 255 per
 * segment, no reserved temporary-file name. Nothing is normalized.
 */
export function checkStorePath(input: StoreText): StorePathCheck {
  const utf8 = checkUtf8(input);
  if (!utf8.ok) return { ok: false, path: lossyText(input), detail: PATH_DETAILS.notUtf8 };
  const path = textAsString(utf8.text);
  const fail = (detail: string): StorePathCheck => ({ ok: false, path, detail });
  if (path === "") return fail(PATH_DETAILS.empty);
  if (utf8.text.byteLength > MAX_PATH_BYTES) return fail(PATH_DETAILS.tooLong);
  if (path.startsWith("/")) return fail(PATH_DETAILS.absolute);
  const segments = path.split("/");
  for (const segment of segments) {
    const detail = segmentDetail(segment);
    if (detail !== undefined) return fail(detail);
  }
  return { ok: true, value: { path, segments } };
}

/** The valid store path in `input`; throws an `invalid_path` StoreError otherwise. */
export function parseStorePath(input: StoreText): StorePath {
  const check = checkStorePath(input);
  if (!check.ok) throw invalidPath(check.path, check.detail);
  return check.value;
}

/** The `invalid_pattern` details shared with paths, worded for patterns. */
export const PATTERN_DETAILS = Object.freeze({
  notUtf8: "not valid UTF-8",
  empty: "the pattern is empty",
  tooLong: `longer than ${MAX_PATTERN_BYTES} bytes`,
  absolute: "absolute patterns are not allowed",
  emptySegment: PATH_DETAILS.emptySegment,
  dotSegment: PATH_DETAILS.dotSegment,
  control: PATH_DETAILS.control,
  unclosedClass: "unclosed character class",
  unfinishedEscape: "unfinished escape at the end",
  globstarInSegment: "** must be a whole segment",
});

/** The outcome of checkPatternText: the pattern's segments, or the first failure's detail. */
export type PatternTextCheck =
  | { readonly ok: true; readonly pattern: string; readonly segments: readonly string[] }
  | { readonly ok: false; readonly pattern: string; readonly detail: string };

/**
 * Checks the shape a glob pattern shares with paths: valid UTF-8, not empty,
 * at most 4096 bytes, relative, no empty, `.` or `..` segment, no control
 * character. Backslashes are allowed (they escape); segment syntax is the
 * glob compiler's.
 */
export function checkPatternText(input: StoreText): PatternTextCheck {
  const utf8 = checkUtf8(input);
  if (!utf8.ok) return { ok: false, pattern: lossyText(input), detail: PATTERN_DETAILS.notUtf8 };
  const pattern = textAsString(utf8.text);
  const fail = (detail: string): PatternTextCheck => ({ ok: false, pattern, detail });
  if (pattern === "") return fail(PATTERN_DETAILS.empty);
  if (utf8.text.byteLength > MAX_PATTERN_BYTES) return fail(PATTERN_DETAILS.tooLong);
  if (pattern.startsWith("/")) return fail(PATTERN_DETAILS.absolute);
  const segments = pattern.split("/");
  for (const segment of segments) {
    if (segment === "") return fail(PATTERN_DETAILS.emptySegment);
    if (segment === "." || segment === "..") return fail(PATTERN_DETAILS.dotSegment);
    const character = segmentCharacterDetail(segment, true);
    if (character !== undefined) return fail(character);
  }
  return { ok: true, pattern, segments };
}
