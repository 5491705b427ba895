import type { Lines } from "./lines";
import type { MdNode, MdPoint } from "./markdown";

/**
 * The Markdown reader split into segments (docs/design/prompt-format.md "Parsing cost"): the
 * lines after the frontmatter are cut at points where CommonMark leaves nothing open at the
 * root, and each segment is either read here, when it is made only of the simple blocks a
 * prompt mostly holds, or given to remark on its own. Both give the mdast subset the outline
 * reads (outline.ts, list-items.ts), with absolute positions, exactly as one remark parse of
 * the whole text would.
 *
 * A cut falls before a line at column 0 that is, outside a root fence:
 * - an ATX heading (`#` to `######`, then a space, a tab or the end): it interrupts a
 *   paragraph and cannot continue a list item or block quote lazily;
 * - a fence opener: likewise;
 * - a line starting with a letter, `{`, `(`, `"` or `'` after a blank line: not indented, so it
 *   continues no list item; after a blank line, no paragraph or block quote;
 * and after the closing fence of a fence opened at column 0. A root fence is followed to its
 * close with the CommonMark rule, so its lines are never taken for cuts.
 *
 * Two things can carry a block over such a cut, so a text holding either is read whole by
 * remark (`undefined`): an HTML block (types 1 to 5 run past blank lines), and a fence indented
 * by one to three spaces, which may open at the root or inside a list item.
 */

/** Reads the mdast of a segment's text on its own (positions relative to the segment). */
export type SegmentParser = (text: string, withFrontmatter: boolean) => MdNode;

/** A line that may start an HTML block, or one inside a container (`- <div>`, `> <!--`). */
const HTML_START = /^[ \t>*+\-0-9.)]*</;
/** A fence indented by one to three spaces. */
const INDENTED_FENCE = /^ {1,3}(?:`{3}|~{3})/;
/** An ATX heading at column 0. */
const ATX = /^#{1,6}(?:[ \t]|$)/;
/** A fence opener at column 0: its marker and its info string. */
const FENCE = /^(`{3,}|~{3,})(.*)$/;
/** A closing fence: up to three spaces, the marker, trailing spaces or tabs. */
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
/** The first character of a plain paragraph line. */
const PLAIN = /^[A-Za-z{("']/;
/** A blank line. */
const BLANK = /^[ \t]*$/;

/** A heading this module reads itself: one space, text without `#`, `\` or tabs, no trailing space. */
const SIMPLE_HEADING = /^(#{1,6}) ([^#\\\s]|[^#\\\s][^#\\\t]*[^#\\\s])$/;
/** A fence opener this module reads itself: at most a one-word info string. */
const SIMPLE_FENCE = /^(`{3,}|~{3,})([A-Za-z0-9_+-]*)$/;
/** A bullet list item this module reads itself: one space, then plain text. */
const SIMPLE_ITEM = /^[-*+] [A-Za-z{("']/;

interface Fence {
  readonly char: string;
  readonly length: number;
}

/** The fence `line` opens at column 0, or undefined (a backtick fence's info has no backtick). */
function fenceOpened(line: string): Fence | undefined {
  const match = FENCE.exec(line);
  const marker = match?.[1];
  if (marker === undefined) return undefined;
  if (marker[0] === "`" && (match?.[2] ?? "").includes("`")) return undefined;
  return { char: marker[0] ?? "`", length: marker.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const marker = CLOSING_FENCE.exec(line)?.[1];
  return marker !== undefined && marker[0] === fence.char && marker.length >= fence.length;
}

/** A segment: lines `first` to `last`. */
interface Segment {
  first: number;
  last: number;
}

/**
 * Cuts lines `from` to the end (see the module comment): `headLast` is the last line before
 * the first cut (`from - 1` when `from` is one), and each segment starts at a cut. Undefined
 * when the text holds something that may carry a block over a cut.
 */
function cut(lines: Lines, from: number): { headLast: number; segments: Segment[] } | undefined {
  const starts: number[] = [];
  let fence: Fence | undefined;
  let afterBlank = true;
  for (let n = from; n <= lines.count; n++) {
    const line = lines.at(n);
    if (fence !== undefined) {
      if (closesFence(line, fence)) {
        fence = undefined;
        if (n < lines.count) starts.push(n + 1);
      }
      afterBlank = false;
      continue;
    }
    if (HTML_START.test(line) || INDENTED_FENCE.test(line)) return undefined;
    const opened = fenceOpened(line);
    if (opened !== undefined) {
      fence = opened;
      starts.push(n);
    } else if (ATX.test(line) || (afterBlank && PLAIN.test(line))) {
      starts.push(n);
    }
    afterBlank = BLANK.test(line);
  }
  const segments: Segment[] = starts.map((first, i) => ({
    first,
    last: (starts[i + 1] ?? lines.count + 1) - 1,
  }));
  return { headLast: (starts[0] ?? lines.count + 1) - 1, segments };
}

/** Line start offsets of a text whose lines are `lines` (index n - 1 for line n). */
function lineOffsets(lines: Lines): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (let n = 1; n <= lines.count; n++) {
    offsets.push(offset);
    offset += lines.at(n).length + 1;
  }
  return offsets;
}

/** Reads the mdast of `text` (whose lines are `lines`), segment by segment. */
export function parseSegmented(
  text: string,
  lines: Lines,
  closeLine: number,
  parse: SegmentParser,
): MdNode {
  const whole = (): MdNode => parse(text, true);
  const cuts = cut(lines, closeLine + 1);
  if (cuts === undefined) return whole();
  const offsets = lineOffsets(lines);
  const offsetOf = (line: number): number => offsets[line - 1] ?? text.length;
  const point = (line: number, column: number): MdPoint => ({
    line,
    column,
    offset: offsetOf(line) + column - 1,
  });

  const children: MdNode[] = [];
  // The frontmatter and what follows it up to the first cut: remark, with the frontmatter.
  const opening = parse(`${lines.slice(1, cuts.headLast)}\n`, true);
  const yaml = opening.children?.[0];
  if (yaml?.type !== "yaml" || yaml.position?.end.line !== closeLine) return whole();
  children.push(...(opening.children ?? []));

  const read = (segment: Segment): MdNode[] | undefined => {
    const first = lines.at(segment.first);
    if (ATX.test(first)) return heading(segment);
    if (fenceOpened(first) !== undefined) return code(segment);
    return blocks(segment);
  };

  const heading = ({ first, last }: Segment): MdNode[] | undefined => {
    const line = lines.at(first);
    const match = SIMPLE_HEADING.exec(line);
    const marks = match?.[1];
    const content = match?.[2];
    if (marks === undefined || content === undefined) return undefined;
    for (let n = first + 1; n <= last; n++) if (!BLANK.test(lines.at(n))) return undefined;
    const start = marks.length + 2;
    return [
      {
        type: "heading",
        depth: marks.length,
        position: { start: point(first, 1), end: point(first, line.length + 1) },
        children: [
          {
            type: "text",
            position: {
              start: point(first, start),
              end: point(first, start + content.length),
            },
          },
        ],
      },
    ];
  };

  const code = ({ first, last }: Segment): MdNode[] | undefined => {
    const opener = lines.at(first);
    const match = SIMPLE_FENCE.exec(opener);
    const fence = fenceOpened(opener);
    if (match === null || fence === undefined || last === first) return undefined;
    // Cut right after its closing fence; an unclosed fence runs to the end: remark's.
    if (!closesFence(lines.at(last), fence)) return undefined;
    const info = match[2] ?? "";
    return [
      {
        type: "code",
        lang: info === "" ? null : info,
        position: { start: point(first, 1), end: point(last, lines.at(last).length + 1) },
      },
    ];
  };

  /** Plain paragraphs and simple bullet lists, with blank lines between. */
  const blocks = ({ first, last }: Segment): MdNode[] | undefined => {
    const nodes: MdNode[] = [];
    let n = first;
    while (n <= last) {
      const line = lines.at(n);
      if (BLANK.test(line)) {
        n++;
        continue;
      }
      if (PLAIN.test(line)) {
        const start = n;
        while (n + 1 <= last && PLAIN.test(lines.at(n + 1))) n++;
        nodes.push({
          type: "paragraph",
          position: { start: point(start, 1), end: point(n, lines.at(n).length + 1) },
        });
        n++;
        // What ends a paragraph here: a blank line, or a list item interrupting it.
        if (n <= last && !BLANK.test(lines.at(n)) && !SIMPLE_ITEM.test(lines.at(n))) {
          return undefined;
        }
        continue;
      }
      if (SIMPLE_ITEM.test(line)) {
        const end = point(n, line.length + 1);
        nodes.push({
          type: "list",
          position: { start: point(n, 1), end },
          children: [
            {
              type: "listItem",
              position: { start: point(n, 1), end },
              children: [{ type: "paragraph", position: { start: point(n, 3), end } }],
            },
          ],
        });
        n++;
        // A plain line right after an item continues its paragraph lazily: remark's.
        if (n <= last && !BLANK.test(lines.at(n)) && !SIMPLE_ITEM.test(lines.at(n))) {
          return undefined;
        }
        continue;
      }
      return undefined;
    }
    return nodes;
  };

  for (const segment of cuts.segments) {
    const native = read(segment);
    if (native !== undefined) {
      children.push(...native);
      continue;
    }
    const tree = parse(`${lines.slice(segment.first, segment.last)}\n`, false);
    const lineShift = segment.first - 1;
    const offsetShift = offsetOf(segment.first);
    for (const child of tree.children ?? []) {
      shift(child, lineShift, offsetShift);
      children.push(child);
    }
  }
  return { type: "root", children };
}

/** Moves every position in `node` and below down by `lines` lines and `offset` characters. */
function shift(node: MdNode, lines: number, offset: number): void {
  const stack: MdNode[] = [node];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const position = next.position;
    if (position !== undefined) {
      for (const at of [position.start, position.end]) {
        at.line += lines;
        if (at.offset !== undefined) at.offset += offset;
      }
    }
    for (const child of next.children ?? []) stack.push(child);
  }
}
