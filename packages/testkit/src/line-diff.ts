/** One line of a line diff: unchanged, only in the expected text, or only in the actual text. */
export interface DiffLine {
  op: "same" | "removed" | "added";
  text: string;
}

/** Options of {@link renderLineDiff}. */
export interface RenderDiffOptions {
  /** Unchanged lines kept around each change (default 3). */
  context?: number;
}

/** Beyond this many cells the diff stops looking for common lines in the changed middle. */
const MAX_CELLS = 4_000_000;

/** Splits text into lines at "\n" (a final "\n" gives a last, empty line). */
export function splitLines(text: string): string[] {
  return text.split("\n");
}

/**
 * A line diff from `expected` to `actual` (texts, or lists of lines): a longest common
 * subsequence of lines, with lines of `expected` that are not in it `removed` and lines of
 * `actual` that are not in it `added` (removals first at each change).
 */
export function lineDiff(
  expected: string | readonly string[],
  actual: string | readonly string[],
): DiffLine[] {
  const a = typeof expected === "string" ? splitLines(expected) : expected;
  const b = typeof actual === "string" ? splitLines(actual) : actual;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ op: "same", text: a[i] ?? "" });
  out.push(...diffMiddle(a.slice(start, endA), b.slice(start, endB)));
  for (let i = endA; i < a.length; i++) out.push({ op: "same", text: a[i] ?? "" });
  return out;
}

function diffMiddle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((text): DiffLine => ({ op: "removed", text })),
      ...b.map((text): DiffLine => ({ op: "added", text })),
    ];
  }
  // lcs[i * (m + 1) + j] = length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i] ?? "" });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      out.push({ op: "removed", text: a[i] ?? "" });
      i++;
    } else {
      out.push({ op: "added", text: b[j] ?? "" });
      j++;
    }
  }
  for (; i < n; i++) out.push({ op: "removed", text: a[i] ?? "" });
  for (; j < m; j++) out.push({ op: "added", text: b[j] ?? "" });
  return out;
}

/**
 * Renders a diff as lines prefixed "- " (expected only), "+ " (actual only) and "  "
 * (both), keeping `context` unchanged lines around each change and folding the rest into
 * "  ... N unchanged lines". Control characters are shown escaped (\t, \r, \u001b).
 */
export function renderLineDiff(
  diff: readonly DiffLine[],
  options: RenderDiffOptions = {},
): string[] {
  const context = options.context ?? 3;
  const keep = diff.map(() => false);
  diff.forEach((line, index) => {
    if (line.op === "same") return;
    for (
      let k = Math.max(0, index - context);
      k <= Math.min(diff.length - 1, index + context);
      k++
    ) {
      keep[k] = true;
    }
  });
  const out: string[] = [];
  let folded = 0;
  const flush = () => {
    if (folded > 0) out.push(`  ... ${folded} unchanged line${folded === 1 ? "" : "s"}`);
    folded = 0;
  };
  diff.forEach((line, index) => {
    if (!keep[index]) {
      folded++;
      return;
    }
    flush();
    const prefix = line.op === "removed" ? "- " : line.op === "added" ? "+ " : "  ";
    out.push(prefix + showControls(line.text));
  });
  flush();
  return out;
}

/** Escapes control characters so that tabs, carriage returns and escapes are visible. */
export function showControls(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char === "\t") out += "\\t";
    else if (char === "\r") out += "\\r";
    else if ((code < 0x20 && char !== "\n") || code === 0x7f) {
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    } else out += char;
  }
  return out;
}

/**
 * Where two texts first differ: 1-based line and column (in code points), or undefined when
 * they are equal.
 */
export function firstDifference(
  expected: string,
  actual: string,
): { line: number; column: number } | undefined {
  if (expected === actual) return undefined;
  let index = 0;
  while (index < expected.length && index < actual.length && expected[index] === actual[index])
    index++;
  const before = expected.slice(0, index);
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.split("\n").length;
  const column = Array.from(before.slice(lineStart)).length + 1;
  return { line, column };
}
