import { type Checked, failed, markdownError } from "./errors";
import type { Region } from "./outline";
import type { SectionLevel } from "./types";

/** A section's place in the heading tree. */
export interface SectionPlace {
  /** The section's heading and extent. */
  region: Region;
  /** Index in document order. */
  index: number;
  /** Heading level, 2 to 6. */
  level: SectionLevel;
  /** Heading reference: the `#` markers, a space, the name. */
  reference: string;
  /** Index of the nearest earlier section at a shallower level, or null. */
  parent: number | null;
  /** Indexes of the sections whose parent this is, in order. */
  children: number[];
  /** True at the shallowest section level used. */
  topLevel: boolean;
  /** True when another section heading has the same name. */
  nameShared: boolean;
}

/**
 * Builds the section tree from the section headings in document order. A section's parent is
 * the nearest earlier section at a shallower level; top-level sections are those at the
 * shallowest level used. A section deeper than that level before the first top-level section
 * would have no parent, and is a Markdown error naming its line.
 */
export function buildSectionTree(regions: readonly Region[]): Checked<SectionPlace[]> {
  let topLevel = 6;
  for (const region of regions) topLevel = Math.min(topLevel, region.level);
  const nameCounts = new Map<string, number>();
  for (const region of regions) nameCounts.set(region.name, (nameCounts.get(region.name) ?? 0) + 1);
  const places: SectionPlace[] = [];
  const open: SectionPlace[] = [];
  for (const [index, region] of regions.entries()) {
    const level = toSectionLevel(region.level);
    while (open.length > 0 && (open[open.length - 1]?.level ?? 0) >= level) open.pop();
    const parent = open[open.length - 1];
    if (parent === undefined && level !== topLevel) {
      const top = "#".repeat(topLevel);
      return failed(
        markdownError(
          `the section \`${"#".repeat(level)} ${region.name}\` comes before any \`${top}\` section, so it has no parent section: start with a \`${top}\` section`,
          region.headingLine,
        ),
      );
    }
    const place: SectionPlace = {
      region,
      index,
      level,
      reference: `${"#".repeat(level)} ${region.name}`,
      parent: parent?.index ?? null,
      children: [],
      topLevel: level === topLevel,
      nameShared: (nameCounts.get(region.name) ?? 0) > 1,
    };
    parent?.children.push(index);
    places.push(place);
    open.push(place);
  }
  return { ok: true, value: places };
}

function toSectionLevel(level: number): SectionLevel {
  switch (level) {
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
      return level;
    default:
      return 6;
  }
}
