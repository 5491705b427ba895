import remarkFrontmatter from "remark-frontmatter";
import remarkParse from "remark-parse";
import { unified } from "unified";
import type { Lines } from "./lines";
import { parseSegmented } from "./markdown-segments";

/** CommonMark with YAML frontmatter: the processor every prompt is parsed with. */
const processor = unified().use(remarkParse).use(remarkFrontmatter, ["yaml"]).freeze();

/** CommonMark alone: for a segment past the frontmatter (markdown-segments.ts). */
const bodyProcessor = unified().use(remarkParse).freeze();

/** A point in the source: 1-based line and column, 0-based offset. */
export interface MdPoint {
  line: number;
  column: number;
  offset?: number | undefined;
}

/**
 * The part of an mdast node this package reads. (The `mdast` types are not resolvable from this
 * package, so it names the subset it uses; every mdast node fits it.)
 */
export interface MdNode {
  /** Node type, such as `heading`, `code`, `paragraph`, `yaml`. */
  type: string;
  /** Where the node sits in the source. */
  position?: { start: MdPoint; end: MdPoint } | undefined;
  /** Child nodes, for parents. */
  children?: MdNode[] | undefined;
  /** Heading level, for headings. */
  depth?: number | undefined;
  /** First word of a code fence's info string, for code. */
  lang?: string | null | undefined;
}

/**
 * Parses the whole prompt text (frontmatter included, so every position is an absolute prompt
 * line) into mdast with one remark parse. Throws only if the Markdown parser itself fails.
 */
export function parseMarkdownWhole(text: string): MdNode {
  return processor.parse(text);
}

/**
 * Parses the prompt text (whose lines are `lines` and whose frontmatter closes on
 * `closeLine`) into the same mdast subset as {@link parseMarkdownWhole}, reading its simple
 * blocks without remark (markdown-segments.ts, docs/design/prompt-format.md "Parsing cost").
 * Throws only if the Markdown parser itself fails.
 */
export function parseMarkdown(text: string, lines: Lines, closeLine: number): MdNode {
  return parseSegmented(text, lines, closeLine, (part, withFrontmatter) =>
    withFrontmatter ? processor.parse(part) : bodyProcessor.parse(part),
  );
}

/** The start line of a node (1 when it has no position, which remark never does). */
export function startLine(node: MdNode): number {
  return node.position?.start.line ?? 1;
}

/** The end line of a node. */
export function endLine(node: MdNode): number {
  return node.position?.end.line ?? 1;
}
