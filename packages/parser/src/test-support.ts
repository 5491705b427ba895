import { type LuaRuntime, loadLuaRuntime } from "@runvil/lua";
import type { Checked } from "./errors";
import { checkFrontmatter } from "./frontmatter";
import { findFrontmatter } from "./frontmatter-fence";
import { Lines } from "./lines";
import { createPromptParser, type PromptParser } from "./parse";
import type { Frontmatter, ParseResult, Prompt, PromptParseError } from "./types";

/** Test support: joins lines with `\n` and ends the text with one. */
export function text(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

/** Test support: a valid frontmatter (lines 1-5) followed by `body` lines. */
export function withFrontmatter(...body: string[]): string {
  return text("---", "name: t", "description: A test prompt.", "runvil: 0", "---", ...body);
}

let parser: PromptParser | undefined;

/** Test support: the synchronous parser on the real Lua runtime. */
export async function realParser(): Promise<PromptParser> {
  if (parser === undefined) parser = createPromptParser(await loadLuaRuntime());
  return parser;
}

/** Test support: a Lua runtime whose compiler accepts everything except sources holding `FAIL`. */
export const fakeLua: LuaRuntime = {
  compile(source, chunkName) {
    const code = typeof source === "string" ? source : new TextDecoder().decode(source);
    if (code.includes("FAIL")) return { ok: false, diagnostic: `[string "${chunkName}"]:1: FAIL` };
    return { ok: true, bytecode: new TextEncoder().encode(chunkName) };
  },
};

/** Test support: the prompt of a successful parse (fails the test otherwise). */
export function expectPrompt(result: ParseResult): Prompt {
  if (!result.ok)
    throw new Error(`expected a prompt, got ${result.error.kind}: ${result.error.message}`);
  return result.prompt;
}

/** Test support: the error of a failed parse (fails the test otherwise). */
export function expectError(result: ParseResult): PromptParseError {
  if (result.ok) throw new Error("expected a parse error, got a prompt");
  return result.error;
}

/** Test support: checks a frontmatter made of `yaml` lines (line 1 is the opening `---`). */
export function checkYaml(...yaml: string[]): Checked<Frontmatter> {
  const found = findFrontmatter(new Lines(["---", ...yaml, "---", ""].join("\n")));
  if (!found.ok) throw new Error(found.error.message);
  return checkFrontmatter(found.fence);
}

/** Test support: the required frontmatter keys (lines 2-4). */
export const REQUIRED_KEYS = ["name: t", "description: A test prompt.", "runvil: 0"];
