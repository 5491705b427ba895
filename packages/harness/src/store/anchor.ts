/** Where an anchor occurs in a text: the first place, and how many places in all. */
export interface AnchorPlaces {
  /** The index of the first occurrence, or -1 when there is none. */
  readonly first: number;
  /** Every occurrence, overlapping ones included. */
  readonly count: number;
}

/**
 * Finds every occurrence of `anchor` in `text`, overlapping occurrences
 * included (`aa` occurs twice in `aaa`), in one prefix-function (KMP) pass:
 * time linear in `text` and `anchor`, whatever they hold. (`indexOf` is not:
 * V8 takes text × anchor steps for an anchor like `a…aba…a` in a text of
 * `a`s, and a search restarted after each occurrence does on `aaa…a`.)
 * Counting code units counts code points too: a well-formed anchor cannot
 * start inside a surrogate pair. `anchor` must not be empty.
 */
export function findAnchor(text: string, anchor: string): AnchorPlaces {
  const failure = prefixFunction(anchor);
  let first = -1;
  let count = 0;
  let matched = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    while (matched > 0 && anchor.charCodeAt(matched) !== unit) matched = failure[matched - 1] ?? 0;
    if (anchor.charCodeAt(matched) === unit) matched += 1;
    if (matched === anchor.length) {
      if (count === 0) first = i + 1 - anchor.length;
      count += 1;
      matched = failure[matched - 1] ?? 0;
    }
  }
  return { first, count };
}

/** How often `anchor` occurs in `text`, overlapping occurrences included ({@link findAnchor}). */
export function countOccurrences(text: string, anchor: string): number {
  return findAnchor(text, anchor).count;
}

/** `failure[i]`: the length of the longest proper prefix of `pattern[0..i]` that is also its suffix. */
function prefixFunction(pattern: string): Int32Array {
  const failure = new Int32Array(pattern.length);
  let k = 0;
  for (let i = 1; i < pattern.length; i++) {
    const unit = pattern.charCodeAt(i);
    while (k > 0 && pattern.charCodeAt(k) !== unit) k = failure[k - 1] ?? 0;
    if (pattern.charCodeAt(k) === unit) k += 1;
    failure[i] = k;
  }
  return failure;
}

/** The outcome of replaceAnchor: the new text, or how often the anchor occurs (0 or more than 1). */
export type AnchorEdit =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly count: number };

/** Replaces the one occurrence of `anchor` in `text` with `replacement`, in linear time. */
export function replaceAnchor(text: string, anchor: string, replacement: string): AnchorEdit {
  const { first, count } = findAnchor(text, anchor);
  if (count !== 1) return { ok: false, count };
  return { ok: true, text: text.slice(0, first) + replacement + text.slice(first + anchor.length) };
}
