import { REASON_BAD_CHARACTER, REASON_CONTROL_CHARACTER, REASON_EMPTY_SEGMENT } from "./reasons";
import { fail, type NameResult, ok } from "./result";

const SLASH = 0x2f;
const END = -1;

/** True for a character allowed in a segment: `a-z`, `0-9`, `-`, `_`, `.`. */
function isSegmentChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2d || // -
    code === 0x5f || // _
    code === 0x2e // .
  );
}

/** True for a control character: any code below 0x20, or DEL (0x7F). */
function isControlChar(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

/**
 * Splits a name into its `/`-separated segments and checks every segment, the shared name
 * form of Pack ids and tool ids (one or more segments, no count rule).
 *
 * Segments are checked from left to right and the characters within each segment from left
 * to right; the first failure decides the reason. No trimming, case folding or other
 * normalizing happens, and there is no length limit.
 */
export function parseName(text: string): NameResult<readonly string[]> {
  const segments: string[] = [];
  const length = text.length;
  let start = 0;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? text.charCodeAt(i) : END;
    if (code === SLASH || code === END) {
      if (i === start) return fail(REASON_EMPTY_SEGMENT);
      segments.push(text.slice(start, i));
      start = i + 1;
    } else if (!isSegmentChar(code)) {
      return fail(isControlChar(code) ? REASON_CONTROL_CHARACTER : REASON_BAD_CHARACTER);
    }
  }
  return ok(segments);
}
