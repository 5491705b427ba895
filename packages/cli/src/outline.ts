import type { LuaBlock, Prompt, SectionItem } from "@runvil/parser";

/** Renders a block's lines as `line N` or `lines N-M`. */
function lineSpan(first: number, last: number): string {
  return last <= first ? `line ${first}` : `lines ${first}-${last}`;
}

function itemLine(item: SectionItem, indent: string): string {
  if (item.kind === "prose") return `${indent}prose  ${lineSpan(item.firstLine, item.lastLine)}`;
  return blockLine(item, indent);
}

function blockLine(block: LuaBlock, indent: string): string {
  return `${indent}lua    ${block.label}  ${lineSpan(block.firstLine, block.lastLine)}`;
}

/**
 * Renders a parsed prompt's outline as text lines: the frontmatter summary (with `bindings`,
 * the lines of a passing prepare's model bindings, after `models:`), the H1 title and every
 * section as a tree, each with its prose and Lua blocks (location labels and absolute lines).
 */
export function renderOutline(prompt: Prompt, bindings: readonly string[] = []): string[] {
  const fm = prompt.frontmatter;
  const out: string[] = [`  ${fm.name}: ${fm.description}`];
  if (fm.uses.length > 0) {
    out.push(`  uses: ${fm.uses.map((u) => `${u.text} (${u.fullName})`).join(", ")}`);
  }
  if (fm.models.length > 0) out.push(`  models: ${fm.models.map((m) => m.label).join(", ")}`);
  out.push(...bindings);
  if (fm.args.length > 0) {
    out.push(
      `  args: ${fm.args.map((a) => (a.required ? `${a.name} (required)` : a.name)).join(", ")}`,
    );
  }
  out.push(`  # ${prompt.title.title}  (line ${prompt.title.line})`);
  for (const item of prompt.title.items) out.push(itemLine(item, "    "));
  const depthOf = (index: number): number => {
    let depth = 0;
    for (
      let p = prompt.sections[index]?.parent ?? null;
      p !== null;
      p = prompt.sections[p]?.parent ?? null
    ) {
      depth += 1;
    }
    return depth;
  };
  for (const section of prompt.sections) {
    const indent = "  ".repeat(depthOf(section.index) + 1);
    out.push(`${indent}${section.reference}  (line ${section.headingLine})`);
    for (const item of section.items) out.push(itemLine(item, `${indent}  `));
  }
  out.push(
    `  ${prompt.sectionCount} top-level section${prompt.sectionCount === 1 ? "" : "s"}, ` +
      `${prompt.sections.length} in all, ${prompt.blocks.length} Lua block${prompt.blocks.length === 1 ? "" : "s"}`,
  );
  return out;
}

/** The machine-readable outline of a parsed prompt (no bytecode, no source text). */
export interface OutlineJson {
  name: string;
  description: string;
  uses: { entry: string; fullName: string; packId: string; line: number; column: number }[];
  models: string[];
  args: string[];
  title: { text: string; line: number; items: OutlineItemJson[] };
  sections: {
    name: string;
    reference: string;
    level: number;
    line: number;
    parent: number | null;
    topLevel: boolean;
    items: OutlineItemJson[];
  }[];
  sectionCount: number;
  blockCount: number;
}

/** One prose segment or Lua block of an outline. */
export type OutlineItemJson =
  | { kind: "prose"; firstLine: number; lastLine: number }
  | {
      kind: "lua";
      label: string;
      role: string;
      fenceLine: number;
      firstLine: number;
      lastLine: number;
    };

function itemJson(item: SectionItem): OutlineItemJson {
  if (item.kind === "prose")
    return { kind: "prose", firstLine: item.firstLine, lastLine: item.lastLine };
  return {
    kind: "lua",
    label: item.label,
    role: item.role,
    fenceLine: item.fenceLine,
    firstLine: item.firstLine,
    lastLine: item.lastLine,
  };
}

/** Builds the JSON outline of a parsed prompt. */
export function outlineJson(prompt: Prompt): OutlineJson {
  const fm = prompt.frontmatter;
  return {
    name: fm.name,
    description: fm.description,
    uses: fm.uses.map((u) => ({
      entry: u.text,
      fullName: u.fullName,
      packId: u.packId,
      line: u.line,
      column: u.column,
    })),
    models: fm.models.map((m) => m.label),
    args: fm.args.map((a) => a.name),
    title: {
      text: prompt.title.title,
      line: prompt.title.line,
      items: prompt.title.items.map(itemJson),
    },
    sections: prompt.sections.map((s) => ({
      name: s.name,
      reference: s.reference,
      level: s.level,
      line: s.headingLine,
      parent: s.parent,
      topLevel: s.topLevel,
      items: s.items.map(itemJson),
    })),
    sectionCount: prompt.sectionCount,
    blockCount: prompt.blocks.length,
  };
}
