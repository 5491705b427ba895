import { type LuaRuntime, loadLuaRuntime } from "@runvil/lua";
import { compileBlocks } from "./compile-blocks";
import { decodePromptInput } from "./decode";
import { type Draft, type DraftBlock, type DraftItem, draftBlocks, draftDocument } from "./draft";
import { type Checked, failed, markdownError, thrownText } from "./errors";
import { checkFrontmatter } from "./frontmatter";
import { findFrontmatter } from "./frontmatter-fence";
import { Lines, normalizeLineEndings } from "./lines";
import { type MdNode, parseMarkdown } from "./markdown";
import { findDeepNesting, MAX_CONTAINER_DEPTH } from "./nesting";
import { outlineDocument } from "./outline";
import { buildSectionTree } from "./sections";
import type {
  Frontmatter,
  LuaBlock,
  ParseOptions,
  ParseResult,
  Prompt,
  PromptParseError,
  Section,
  SectionItem,
} from "./types";

/** A parser bound to a loaded Lua runtime: synchronous, for hot paths. */
export type PromptParser = (input: string | Uint8Array, options?: ParseOptions) => ParseResult;

/**
 * Parses a prompt: decodes it, checks the frontmatter and the Markdown structure, and compiles
 * every Lua block, loading the Lua runtime first (once per process). Never rejects: every
 * failure, including a Lua runtime that cannot load, is a {@link PromptParseError} value.
 */
export async function parsePrompt(
  input: string | Uint8Array,
  options?: ParseOptions,
): Promise<ParseResult> {
  let lua: LuaRuntime;
  try {
    lua = await loadLuaRuntime();
  } catch (thrown) {
    return fail(
      { kind: "Lua", message: `the Lua runtime could not be loaded: ${thrownText(thrown)}` },
      options,
    );
  }
  return createPromptParser(lua)(input, options);
}

/**
 * Makes a synchronous parser that compiles blocks with `lua`. The parser never throws for any
 * input; only an exception thrown by {@link ParseOptions.onCompileReport} leaves it.
 */
export function createPromptParser(lua: LuaRuntime): PromptParser {
  return (input, options) => parseWith(lua, input, options, parseMarkdown);
}

/** Reads a prompt's Markdown: its text, its lines, the frontmatter's closing line. */
export type MarkdownReader = (text: string, lines: Lines, closeLine: number) => MdNode;

/**
 * {@link createPromptParser} with another Markdown reader, such as one remark parse of the whole
 * text (`parseMarkdownWhole`): the benchmark's before and after (not exported by the package).
 */
export function createPromptParserReading(lua: LuaRuntime, read: MarkdownReader): PromptParser {
  return (input, options) => parseWith(lua, input, options, read);
}

/** Everything worked out before compiling. */
interface CheckedPrompt {
  text: string;
  lines: Lines;
  frontmatter: Frontmatter;
  draft: Draft;
}

function parseWith(
  lua: LuaRuntime,
  input: unknown,
  options: ParseOptions | undefined,
  read: MarkdownReader,
): ParseResult {
  let checked: Checked<CheckedPrompt>;
  try {
    checked = checkPrompt(input, read);
  } catch (thrown) {
    // Only a failure inside a library (such as the Markdown parser) can land here.
    return fail(
      { kind: "Markdown", message: `the prompt could not be parsed: ${thrownText(thrown)}` },
      options,
    );
  }
  if (!checked.ok) return fail(checked.error, options);
  const pending = draftBlocks(checked.value.draft);
  const compiled = compileBlocks(
    lua,
    pending.map((block) => ({
      source: block.source,
      firstLine: block.firstLine,
      label: block.label,
      sectionName: block.sectionName,
      underTitle: block.section === null,
    })),
    options?.onCompileReport,
  );
  if (!compiled.ok) return fail(compiled.error, options);
  const bytecode = new Map<DraftBlock, Uint8Array>();
  pending.forEach((block, i) => {
    bytecode.set(block, compiled.value[i] ?? new Uint8Array(0));
  });
  return { ok: true, prompt: assemble(checked.value, bytecode, options?.path) };
}

function fail(error: PromptParseError, options: ParseOptions | undefined): ParseResult {
  const path = options?.path;
  return { ok: false, error: path === undefined ? error : { ...error, path } };
}

/** Every check up to compiling: decoding, frontmatter, Markdown structure, roles and labels. */
function checkPrompt(input: unknown, read: MarkdownReader): Checked<CheckedPrompt> {
  const decoded = decodePromptInput(input);
  if (!decoded.ok) return decoded;
  const text = normalizeLineEndings(decoded.text);
  const lines = new Lines(text);
  const fence = findFrontmatter(lines);
  if (!fence.ok) return fence;
  const frontmatter = checkFrontmatter(fence.fence);
  if (!frontmatter.ok) return frontmatter;
  const deep = findDeepNesting(lines, fence.fence.closeLine + 1);
  if (deep !== undefined) {
    return failed(
      markdownError(
        `lists and blockquotes are nested more than ${MAX_CONTAINER_DEPTH} levels deep`,
        deep,
      ),
    );
  }
  const outline = outlineDocument(read(text, lines, fence.fence.closeLine), text, lines);
  if (!outline.ok) return outline;
  const places = buildSectionTree(outline.value.sections);
  if (!places.ok) return places;
  const draft = draftDocument(outline.value.title, places.value, lines);
  return { ok: true, value: { text, lines, frontmatter: frontmatter.value, draft } };
}

/** Builds the Prompt from the checked parts and the compiled bytecode. */
function assemble(
  checked: CheckedPrompt,
  bytecode: Map<DraftBlock, Uint8Array>,
  path: string | undefined,
): Prompt {
  const allBlocks: LuaBlock[] = [];
  const finish = (items: DraftItem[]): { items: SectionItem[]; blocks: LuaBlock[] } => {
    const blocks: LuaBlock[] = [];
    const done = items.map((item): SectionItem => {
      if (item.kind === "prose") return item;
      const block: LuaBlock = { ...item, bytecode: bytecode.get(item) ?? new Uint8Array(0) };
      blocks.push(block);
      allBlocks.push(block);
      return block;
    });
    return { items: done, blocks };
  };
  const { draft } = checked;
  const title = finish(draft.title.items);
  const sections = draft.sections.map(({ place, region, items }): Section => {
    const content = finish(items);
    return {
      index: place.index,
      name: region.name,
      level: place.level,
      reference: place.reference,
      headingLine: region.headingLine,
      lastLine: region.lastLine,
      parent: place.parent,
      children: place.children,
      topLevel: place.topLevel,
      nameShared: place.nameShared,
      hasProse: content.items.some((item) => item.kind === "prose"),
      items: content.items,
      blocks: content.blocks,
    };
  });
  const topLevel = sections.filter((section) => section.topLevel).map((section) => section.index);
  return {
    path,
    text: checked.text,
    lineCount: checked.lines.count,
    frontmatter: checked.frontmatter,
    title: {
      title: draft.title.region.name,
      line: draft.title.region.headingLine,
      lastLine: draft.title.region.lastLine,
      items: title.items,
      blocks: title.blocks,
    },
    sections,
    topLevel,
    sectionCount: topLevel.length,
    blocks: allBlocks,
  };
}
