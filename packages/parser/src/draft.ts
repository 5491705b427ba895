import { chunkNameForLine } from "@runvil/lua";
import { sectionBlockLabel, sectionRoles, titleBlockLabel } from "./labels";
import type { Lines } from "./lines";
import type { Region } from "./outline";
import { splitRegion } from "./prose";
import type { SectionPlace } from "./sections";
import type { BlockRole, LuaBlock, ProseSegment } from "./types";

/** A Lua block before compiling: everything but its bytecode. */
export type DraftBlock = Omit<LuaBlock, "bytecode">;

/** One item of a region's content before compiling. */
export type DraftItem = ProseSegment | DraftBlock;

/** A region (the title's or a section's) with its items drafted. */
export interface DraftRegion {
  /** The heading and extent. */
  region: Region;
  /** Its prose and blocks in order. */
  items: DraftItem[];
}

/** A section with its place in the tree and its items drafted. */
export interface DraftSection extends DraftRegion {
  /** Its place in the section tree. */
  place: SectionPlace;
}

/** The title and sections with every block's role, label, lines and source worked out. */
export interface Draft {
  /** The H1 title's region. */
  title: DraftRegion;
  /** The sections, in document order. */
  sections: DraftSection[];
}

/**
 * Works out every block of the document: the title's blocks get the role `title` and the label
 * H1 `{title}` lua; a section's blocks get their roles from {@link sectionRoles} and labels that
 * carry (line N) when the section's name is shared.
 */
export function draftDocument(title: Region, places: readonly SectionPlace[], lines: Lines): Draft {
  const titleLabel = titleBlockLabel(title.name);
  return {
    title: {
      region: title,
      items: draftItems(
        title,
        lines,
        null,
        () => title.blocks.map((): BlockRole => "title"),
        () => titleLabel,
      ),
    },
    sections: places.map((place) => {
      const { region } = place;
      const shared = place.nameShared ? region.headingLine : undefined;
      return {
        place,
        region,
        items: draftItems(region, lines, place.index, sectionRoles, (role, n) =>
          sectionBlockLabel(region.name, shared, role, n),
        ),
      };
    }),
  };
}

function draftItems(
  region: Region,
  lines: Lines,
  section: number | null,
  roles: (parts: ReturnType<typeof splitRegion>) => BlockRole[],
  label: (role: BlockRole, index: number) => string,
): DraftItem[] {
  const parts = splitRegion(region, lines);
  const blockRoles = roles(parts);
  let index = 0;
  return parts.map((part): DraftItem => {
    if (part.kind === "prose") return part;
    const role = blockRoles[index] ?? "lua";
    const firstLine = part.fenceLine + 1;
    const lastLine = part.closeLine - 1;
    const block: DraftBlock = {
      kind: "lua",
      index,
      role,
      label: label(role, index),
      section,
      sectionName: region.name,
      fenceLine: part.fenceLine,
      firstLine,
      lastLine,
      closeLine: part.closeLine,
      source: lines.slice(firstLine, lastLine),
      chunkName: chunkNameForLine(firstLine),
    };
    index++;
    return block;
  });
}

/** Every draft block in file order: the title's, then each section's. */
export function draftBlocks(draft: Draft): DraftBlock[] {
  const blocks: DraftBlock[] = [];
  for (const region of [draft.title, ...draft.sections]) {
    for (const item of region.items) if (item.kind === "lua") blocks.push(item);
  }
  return blocks;
}
