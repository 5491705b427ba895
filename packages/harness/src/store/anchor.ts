/**
 * How often `anchor` occurs in `text`, counting every position, overlapping
 * occurrences included (`aa` occurs twice in `aaa`). `anchor` must not be
 * empty.
 */
export function countOccurrences(text: string, anchor: string): number {
  let count = 0;
  let index = text.indexOf(anchor);
  while (index !== -1) {
    count += 1;
    index = text.indexOf(anchor, index + 1);
  }
  return count;
}

/** The outcome of replaceAnchor: the new text, or how often the anchor occurs (0 or more than 1). */
export type AnchorEdit =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly count: number };

/** Replaces the one occurrence of `anchor` in `text` with `replacement`. */
export function replaceAnchor(text: string, anchor: string, replacement: string): AnchorEdit {
  const index = text.indexOf(anchor);
  if (index === -1) return { ok: false, count: 0 };
  if (text.indexOf(anchor, index + 1) !== -1) {
    return { ok: false, count: countOccurrences(text, anchor) };
  }
  return { ok: true, text: text.slice(0, index) + replacement + text.slice(index + anchor.length) };
}
