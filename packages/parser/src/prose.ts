import type { Lines } from "./lines";
import type { BlockLines, Region } from "./outline";
import type { ProseSegment } from "./types";

/** A region's own content in order: prose segments and the lines of its Lua blocks. */
export type RegionPart = ProseSegment | ({ kind: "block" } & BlockLines);

/**
 * Splits a region's own content (the lines after its heading, up to its last line) into prose
 * segments and Lua blocks, in order. A prose segment is the text between two neighbours (the
 * heading, a block, the region's end) from its first to its last non-blank line, with the
 * region's root-level list items that start inside it; stretches with only blank lines are no
 * segment at all.
 */
export function splitRegion(region: Region, lines: Lines): RegionPart[] {
  const parts: RegionPart[] = [];
  let next = region.headingLine + 1;
  for (const block of region.blocks) {
    pushProse(parts, region, lines, next, block.fenceLine - 1);
    parts.push({ kind: "block", ...block });
    next = block.closeLine + 1;
  }
  pushProse(parts, region, lines, next, region.lastLine);
  return parts;
}

function pushProse(
  parts: RegionPart[],
  region: Region,
  lines: Lines,
  from: number,
  to: number,
): void {
  let first = from;
  let last = to;
  while (first <= last && lines.isBlank(first)) first++;
  while (last >= first && lines.isBlank(last)) last--;
  if (first > last) return;
  const listItems = region.listItems.filter((item) => item.line >= first && item.line <= last);
  parts.push({
    kind: "prose",
    text: lines.slice(first, last),
    firstLine: first,
    lastLine: last,
    listItems,
  });
}
