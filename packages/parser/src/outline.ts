import { type Checked, failed, markdownError } from "./errors";
import type { Lines } from "./lines";
import { listItemsOf } from "./list-items";
import { endLine, type MdNode, startLine } from "./markdown";
import type { ListItem } from "./types";

/** A root-level ```lua fenced block, by its lines. */
export interface BlockLines {
  /** Line of the opening fence. */
  fenceLine: number;
  /** Line of the closing fence. */
  closeLine: number;
}

/** A heading (the H1 or a section) and the extent of its own content. */
export interface Region {
  /** Heading level: 1 for the title, 2 to 6 for sections. */
  level: number;
  /** Heading text without the `#` markers, trimmed. */
  name: string;
  /** Line of the heading. */
  headingLine: number;
  /** Last line of its own content: the line before the next heading, or the file's last line. */
  lastLine: number;
  /** Its root-level ```lua blocks, in order. */
  blocks: BlockLines[];
  /** The items of its root-level Markdown lists, in order. */
  listItems: ListItem[];
}

/** The document's headings and Lua blocks, checked for structure. */
export interface Outline {
  /** The `# Title` region. */
  title: Region;
  /** The section regions, in document order. */
  sections: Region[];
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const ATX_OPEN = /^ {0,3}#/;

/**
 * Walks the root of the mdast and checks the document's structure, reporting the first problem
 * in file order as a Markdown error:
 * - content between the frontmatter and the `# Title` heading, or no `# Title` at all;
 * - a second H1; a setext heading (text underlined with `===` or `---`);
 * - a heading with no text;
 * - a ```lua block inside a list or blockquote;
 * - a fenced code block at the top level whose closing fence is missing.
 *
 * Headings inside lists and blockquotes are prose, not sections.
 */
export function outlineDocument(root: MdNode, text: string, lines: Lines): Checked<Outline> {
  let title: Region | undefined;
  const sections: Region[] = [];
  let current: Region | undefined;
  let frontmatterEnd = 0;
  for (const child of root.children ?? []) {
    if (child.type === "yaml") {
      frontmatterEnd = endLine(child);
      continue;
    }
    const nested = findNestedLua(child);
    if (nested !== undefined) {
      return failed(
        markdownError(
          "a ```lua block must sit directly in a section, not inside a list or blockquote",
          startLine(nested),
        ),
      );
    }
    if (child.type === "heading") {
      const region = headingRegion(child, headingDepth(child), text, lines, title !== undefined);
      if (!region.ok) return region;
      if (current !== undefined) current.lastLine = region.value.headingLine - 1;
      current = region.value;
      if (current.level === 1) title = current;
      else sections.push(current);
      continue;
    }
    if (current === undefined) {
      return failed(
        markdownError(
          `expected the \`# Title\` heading after the frontmatter, found ${describeContent(child)}`,
          startLine(child),
        ),
      );
    }
    if (child.type === "list") current.listItems.push(...listItemsOf(child, lines));
    if (child.type === "code") {
      const block = fencedBlock(child, lines);
      if (!block.ok) return block;
      if (block.value !== undefined && child.lang === "lua") current.blocks.push(block.value);
    }
  }
  if (title === undefined) {
    return failed(
      markdownError("the prompt has no `# Title` heading after its frontmatter", frontmatterEnd),
    );
  }
  if (current !== undefined) current.lastLine = lines.count;
  return { ok: true, value: { title, sections } };
}

/** Checks a root-level heading and starts its region. */
function headingRegion(
  heading: MdNode,
  depth: number,
  text: string,
  lines: Lines,
  haveTitle: boolean,
): Checked<Region> {
  const line = startLine(heading);
  if (!ATX_OPEN.test(lines.at(line))) {
    return failed(
      markdownError(
        "text underlined with `===` or `---` is a setext heading, which prompts do not use: write `# Title` or `## Name` headings, and leave a blank line before a `---` rule",
        line,
      ),
    );
  }
  if (depth === 1 && haveTitle) {
    return failed(
      markdownError("a prompt has exactly one `# Title` heading; this is a second one", line),
    );
  }
  if (depth > 1 && !haveTitle) {
    return failed(
      markdownError(
        `expected the \`# Title\` heading after the frontmatter, found a \`${"#".repeat(depth)}\` heading`,
        line,
      ),
    );
  }
  const name = headingText(heading, text);
  if (name === "") {
    return failed(
      markdownError(
        depth === 1
          ? "the `# Title` heading has no text"
          : `a section heading needs a name, such as \`${"#".repeat(depth)} Gather\``,
        line,
      ),
    );
  }
  return {
    ok: true,
    value: { level: depth, name, headingLine: line, lastLine: line, blocks: [], listItems: [] },
  };
}

/** A heading's level, 1 to 6. */
function headingDepth(heading: MdNode): number {
  const depth = heading.depth ?? 1;
  return depth >= 1 && depth <= 6 ? depth : 1;
}

/** The heading's text as written between the `#` markers and any closing sequence, trimmed. */
function headingText(heading: MdNode, text: string): string {
  const children = heading.children ?? [];
  const first = children[0];
  const last = children[children.length - 1];
  const start = first?.position?.start.offset;
  const end = last?.position?.end.offset;
  if (start === undefined || end === undefined) return "";
  return text.slice(start, end).trim();
}

/**
 * For a fenced code block at the root: its lines, after checking that its closing fence exists
 * (remark silently runs an unclosed fence to the end of the file). Undefined for indented code.
 */
function fencedBlock(code: MdNode, lines: Lines): Checked<BlockLines | undefined> {
  const fenceLine = startLine(code);
  const opener = FENCE_OPEN.exec(lines.at(fenceLine))?.[1];
  if (opener === undefined) return { ok: true, value: undefined };
  const closeLine = endLine(code);
  if (closeLine <= fenceLine || !isClosingFence(lines.at(closeLine), opener)) {
    return failed(
      markdownError(
        `the code fence opened on line ${fenceLine} is never closed: add a closing ${opener}`,
        fenceLine,
      ),
    );
  }
  return { ok: true, value: { fenceLine, closeLine } };
}

/** True when `line` closes a fence opened with `opener` (same character, at least as long). */
export function isClosingFence(line: string, opener: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  const fence = match?.[1];
  return fence !== undefined && fence[0] === opener[0] && fence.length >= opener.length;
}

/** The first ```lua code node nested inside `node` (not at the root), found without recursion. */
function findNestedLua(node: MdNode): MdNode | undefined {
  const stack: MdNode[] = [...(node.children ?? [])].reverse();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.type === "code" && next.lang === "lua") return next;
    const children = next.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
  return undefined;
}

/** How a root node is named in "found ..." messages. */
function describeContent(node: MdNode): string {
  switch (node.type) {
    case "paragraph":
      return "text";
    case "list":
      return "a list";
    case "blockquote":
      return "a blockquote";
    case "code":
      return "a code block";
    case "html":
      return "HTML";
    case "thematicBreak":
      return "a `---` rule";
    case "definition":
      return "a link definition";
    default:
      return `Markdown content (${node.type})`;
  }
}
