import type { UsesEntry } from "@runvil/names";

/** JSON data: what frontmatter settings and arg defaults may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object. Built with own properties only, so keys such as `__proto__` are plain keys. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One entry under `uses:`, parsed by the name grammar, with where it was written. */
export interface UsesDeclaration extends UsesEntry {
  /** Absolute prompt line of the entry (the frontmatter's opening `---` is line 1). */
  line: number;
  /** 1-based column of the entry's first character on that line. */
  column: number;
}

/**
 * The checked settings of one model role (docs/design/models.md §1). A role written `writer: {}`
 * has `{ model: [], stop: [], maxRounds: 20 }`.
 */
export interface RoleSettings {
  /**
   * `model`: the catalog model ids the role wants, most wanted first (`model: x` is `["x"]`).
   * Empty when not given: prepare binds the Host's default model.
   */
  model: string[];
  /** `system`: the system text sent with every round of this role (non-empty), when given. */
  system?: string;
  /** `temperature`: 0 to 2, when given (else the provider's). */
  temperature?: number;
  /** `max_output_tokens`: the cap on one reply, a whole number ≥ 1, when given. */
  maxOutputTokens?: number;
  /** `stop`: the stop sequences (`stop: x` is `["x"]`), 1 to 16 non-empty strings; empty when not given. */
  stop: string[];
  /** `max_rounds`: the round cap of one `models.loop` call, 1 to 10000; 20 when not given. */
  maxRounds: number;
}

/** One model role under `models:`, such as `writer: {}`. */
export interface ModelRoleDeclaration {
  /** The role label, checked with the alias grammar `[A-Za-z][A-Za-z0-9_-]{0,63}`. */
  label: string;
  /** The role's checked settings, defaults filled in. */
  settings: RoleSettings;
  /** Absolute prompt line of the role label. */
  line: number;
}

/** One argument under `args:`, such as `topic: { required: true }`. */
export interface ArgDeclaration {
  /** The arg name, checked with the alias grammar `[A-Za-z][A-Za-z0-9_-]{0,63}`. */
  name: string;
  /** The `description` setting, or undefined when absent. */
  description: string | undefined;
  /** The `required` setting; false when absent. */
  required: boolean;
  /**
   * The `default` setting as JSON data, or undefined when absent (a YAML `null` default is
   * `null`, a real default).
   */
  default: JsonValue | undefined;
  /** Absolute prompt line of the arg name. */
  line: number;
}

/** The checked YAML frontmatter of a prompt. */
export interface Frontmatter {
  /** Line of the opening `---`: always 1. */
  startLine: number;
  /** Line of the closing `---`. */
  endLine: number;
  /** `name`: the prompt's name (required, a non-blank string). */
  name: string;
  /** `description`: what the prompt does (required, a non-blank string). */
  description: string;
  /** `runvil`: the prompt format version (required, always 0). */
  runvil: 0;
  /** `uses`: the declared Packs in the order written; empty when the key is absent. */
  uses: UsesDeclaration[];
  /** `models`: the model roles in the order written; empty when the key is absent. */
  models: ModelRoleDeclaration[];
  /** `args`: the declared arguments in the order written; empty when the key is absent. */
  args: ArgDeclaration[];
  /** `budget`: the prompt's token and cost limits (docs/design/budgets.md); absent when the key is. */
  budget?: PromptBudget;
}

/** The limits of one budget scope; a limit left out does not apply. */
export interface BudgetLimits {
  /** `max_tokens`: the most input + output tokens, a whole number ≥ 0. */
  maxTokens?: number;
  /** `max_cost_usd`: the most US dollars, a number ≥ 0. */
  maxCostUsd?: number;
}

/** `budget:`: limits on the whole run and on each section (every entry of one section). */
export interface PromptBudget {
  /** `run`. */
  run?: BudgetLimits;
  /** `section`: applies to each section on its own. */
  section?: BudgetLimits;
}

/**
 * A Lua block's role in its section, which its location label names.
 *
 * - `prologue`: the first block, when it comes before all of the section's prose (or the section
 *   has no prose);
 * - `epilog`: the last block, when it comes after all of the section's prose (only in a section
 *   with prose);
 * - `lua`: any other section block, labeled `lua {n}` with n = {@link LuaBlock.index} + 1;
 * - `title`: a block under the H1 title, before the first section, labeled H1 `{title}` lua.
 */
export type BlockRole = "prologue" | "epilog" | "lua" | "title";

/** A fenced code block whose info string's first word is exactly `lua`, compiled at parse time. */
export interface LuaBlock {
  /** Discriminates {@link SectionItem}. */
  kind: "lua";
  /** 0-based place among the Lua blocks of its section (or of the H1 title's area). */
  index: number;
  /** Its role, from its position among the section's blocks and prose. */
  role: BlockRole;
  /**
   * The location label errors name the block by, such as section `Check` epilog,
   * section `Helpers` (line 10) prologue, section `lib` lua 3, or H1 `T` lua.
   */
  label: string;
  /** Index of its section in {@link Prompt.sections}, or null for a block under the H1 title. */
  section: number | null;
  /** Name of its section, or the H1 title for a block under the title (for reports). */
  sectionName: string;
  /** Line of the opening fence. */
  fenceLine: number;
  /** First Lua line: the line right after the opening fence. */
  firstLine: number;
  /** Last Lua line: the line before the closing fence (firstLine - 1 when the block is empty). */
  lastLine: number;
  /** Line of the closing fence. */
  closeLine: number;
  /**
   * The block's Lua source: the file's lines between the two fences, exactly as written (line
   * endings normalized to `\n`, no trailing newline, indentation kept).
   */
  source: string;
  /** The chunk name the block is compiled and loaded under: `line {firstLine}`. */
  chunkName: string;
  /** The compiled bytecode (`lua_dump`, debug information kept), ready to load. */
  bytecode: Uint8Array;
}

/**
 * One item of a root-level Markdown list (bullet `-` `*` `+` or ordered `1.` `1)`) in a prose
 * segment. Lists inside blockquotes and code fences are not lists here.
 */
export interface ListItem {
  /**
   * The item's source without its marker and the item's indentation, trimmed: nested content
   * (sub-lists, continuation paragraphs, fences) stays in it as Markdown. `''` for an empty item.
   */
  text: string;
  /** Absolute line of the item's marker. */
  line: number;
}

/** A run of prose between Lua blocks (or between a heading and a block, and so on). */
export interface ProseSegment {
  /** Discriminates {@link SectionItem}. */
  kind: "prose";
  /**
   * The source text from its first to its last non-blank line, exactly as written (line endings
   * normalized to `\n`, no trailing newline). Blank lines inside are kept.
   */
  text: string;
  /** Absolute line of its first non-blank line. */
  firstLine: number;
  /** Absolute line of its last non-blank line. */
  lastLine: number;
  /** The items of its root-level Markdown lists, lists in file order, items in order. */
  listItems: ListItem[];
}

/** One thing in a section's own content, in file order. */
export type SectionItem = ProseSegment | LuaBlock;

/** The H1 title and the content under it, before the first section heading. */
export interface TitleArea {
  /** The title: the H1 heading's text without the `#` markers, trimmed. */
  title: string;
  /** Line of the `# Title` heading. */
  line: number;
  /** Last line of the title's own content (the line before the first section heading). */
  lastLine: number;
  /** Prose and Lua blocks under the title, in order. */
  items: SectionItem[];
  /** The Lua blocks among {@link items}, in order (the H1 pass runs them). */
  blocks: LuaBlock[];
}

/** Heading levels that make sections. */
export type SectionLevel = 2 | 3 | 4 | 5 | 6;

/** A section: a heading at level 2 to 6 after the H1 and its own content up to the next heading. */
export interface Section {
  /** Its index in {@link Prompt.sections} (document order). */
  index: number;
  /** The heading text without the `#` markers, trimmed, as written (inline markup kept). */
  name: string;
  /** The heading level: the number of `#` markers. */
  level: SectionLevel;
  /** The heading as a heading reference: the `#` markers, a space, and the name, e.g. `## lib`. */
  reference: string;
  /** Line of the heading. */
  headingLine: number;
  /** Last line of its own content (the line before the next heading, or the file's last line). */
  lastLine: number;
  /** Index of the parent section (the nearest earlier section at a shallower level), or null. */
  parent: number | null;
  /** Indexes of its child sections, in order. */
  children: number[];
  /** True for a section at the shallowest section level used (counted by sys.section_count). */
  topLevel: boolean;
  /** True when another section heading has the same name; its labels then carry (line N). */
  nameShared: boolean;
  /** True when its own content holds any non-blank text besides its Lua blocks. */
  hasProse: boolean;
  /** Its prose segments and Lua blocks, in file order. */
  items: SectionItem[];
  /** The Lua blocks among {@link items}, in order. */
  blocks: LuaBlock[];
}

/** A parsed prompt: everything the Engine needs to run it, with every Lua block compiled. */
export interface Prompt {
  /** The file path given in {@link ParseOptions.path}, if any. */
  path: string | undefined;
  /** The decoded prompt text (BOM dropped, line endings normalized to `\n`). */
  text: string;
  /** Number of lines in the file. */
  lineCount: number;
  /** The checked frontmatter. */
  frontmatter: Frontmatter;
  /** The H1 title and the prose and blocks under it. */
  title: TitleArea;
  /** Every section in document order; {@link Section.parent} and children index into it. */
  sections: Section[];
  /** Indexes of the top-level sections, in order. */
  topLevel: number[];
  /** Number of top-level sections (`sys.section_count`). */
  sectionCount: number;
  /** Every Lua block in file order: the title's blocks, then each section's. */
  blocks: LuaBlock[];
}

/** Reports emitted while compiling blocks, one started and then one succeeded or failed each. */
export interface CompileReport {
  /** Which step of compiling one block. */
  stage: "started" | "succeeded" | "failed";
  /** The block's section name (the H1 title for a block under the title). */
  section: string;
  /** True for a block under the H1 title. */
  underTitle: boolean;
}

/** Options for parsing a prompt. */
export interface ParseOptions {
  /** The prompt's file path; copied to {@link Prompt.path} and {@link PromptParseError.path}. */
  path?: string;
  /**
   * Called for each compile report, in order. Exceptions it throws are not caught: they leave
   * the parse (this is the caller's own code, not input).
   */
  onCompileReport?: (report: CompileReport) => void;
}

/**
 * The parse error kinds: bad bytes (`Encoding`), a frontmatter problem (`Frontmatter`), a
 * document structure problem such as a missing H1 or an unclosed fence (`Markdown`), and a Lua
 * block that does not compile (`Lua`).
 */
export type ParseErrorKind = "Encoding" | "Frontmatter" | "Markdown" | "Lua";

/** Why a prompt failed to parse. */
export interface PromptParseError {
  /** The error kind. */
  kind: ParseErrorKind;
  /**
   * The whole message, lowercase-first. Frontmatter messages start `invalid frontmatter: `; most
   * messages end with ` (line N)`. A Lua compile error is exactly
   * `lua compilation error at {label} (line {firstLine}): {diagnostic}`.
   */
  message: string;
  /** Absolute line of the problem, when it has one (never for `Lua`, never for a repeated Pack id). */
  line?: number;
  /** 1-based column, for a malformed `uses:` entry. */
  column?: number;
  /** For `Lua`: the failing block's full source. */
  source?: string;
  /** The file path given in {@link ParseOptions.path}, if any. */
  path?: string;
}

/** The outcome of parsing: the prompt, or the first problem found. */
export type ParseResult = { ok: true; prompt: Prompt } | { ok: false; error: PromptParseError };
