import type { Lines } from "./lines";

/** How deep lists and blockquotes may nest before the prompt is refused. */
export const MAX_CONTAINER_DEPTH = 32;

const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/**
 * Finds the first line, from `fromLine` on, whose leading list markers and `>` markers (plus
 * half its indentation, for lists nested by indentation) estimate a container nesting deeper
 * than {@link MAX_CONTAINER_DEPTH}. Returns undefined when there is none.
 *
 * This is a guard, not a Markdown rule: the Markdown parser's time grows steeply with nesting
 * depth (hundreds of levels take seconds to minutes), so absurd nesting is refused before it is
 * parsed. Prompts never need more than a few levels.
 */
export function findDeepNesting(lines: Lines, fromLine: number): number | undefined {
  for (let n = fromLine; n <= lines.count; n++) {
    if (containerDepthEstimate(lines.at(n)) > MAX_CONTAINER_DEPTH) return n;
  }
  return undefined;
}

/** The nesting estimate for one line (0 for a line that opens no container). */
export function containerDepthEstimate(line: string): number {
  if (THEMATIC_BREAK.test(line)) return 0;
  let i = 0;
  let markers = 0;
  let leadingColumns = 0;
  let leading = true;
  while (i < line.length) {
    const start = i;
    while (line[i] === " " || line[i] === "\t") i++;
    if (leading) {
      leadingColumns = indentColumns(line.slice(start, i));
      leading = false;
    }
    const after = markerEnd(line, i);
    if (after === undefined) break;
    markers++;
    i = after;
  }
  return markers === 0 ? 0 : markers + Math.floor(leadingColumns / 2);
}

/** The index after a container marker starting at `i`, or undefined when none starts there. */
function markerEnd(line: string, i: number): number | undefined {
  const char = line[i];
  if (char === ">") return i + 1;
  if (char === "-" || char === "*" || char === "+") {
    return endsMarker(line, i + 1) ? i + 1 : undefined;
  }
  let j = i;
  while (j < line.length && j - i < 9 && isDigit(line.charCodeAt(j))) j++;
  if (j > i && (line[j] === "." || line[j] === ")") && endsMarker(line, j + 1)) return j + 1;
  return undefined;
}

function endsMarker(line: string, i: number): boolean {
  return i >= line.length || line[i] === " " || line[i] === "\t";
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function indentColumns(whitespace: string): number {
  let columns = 0;
  for (const char of whitespace)
    columns = char === "\t" ? columns + 4 - (columns % 4) : columns + 1;
  return columns;
}
