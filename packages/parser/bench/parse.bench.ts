import { deepStrictEqual } from "node:assert";
import { chunkNameForLine, loadLuaRuntime } from "@runvil/lua";
import remarkFrontmatter from "remark-frontmatter";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { afterAll, bench, describe } from "vitest";
import { createPromptParser } from "../src/index";
import { parseMarkdownWhole } from "../src/markdown";
import { createPromptParserReading } from "../src/parse";
import { generatePrompt, generateSectionPrompt } from "./generate-prompt";

const lua = await loadLuaRuntime();
const parse = createPromptParser(lua);
// Before: one remark parse of the whole text (the reader until issue 11's parse goal).
const parseBefore = createPromptParserReading(lua, (text) => parseMarkdownWhole(text));
const markdownOnly = unified().use(remarkParse).use(remarkFrontmatter, ["yaml"]).freeze();
const prompt = generatePrompt();
const sectionPrompt = generateSectionPrompt(1000);
const firstLines = prompt.sources.map((_, i) => i + 1);

// Sanity: the generated prompt parses and has the announced shape.
const check = parse(prompt.text);
if (!check.ok) throw new Error(check.error.message);
if (check.prompt.blocks.length !== prompt.blocks) throw new Error("block count mismatch");
// Before and after read the same prompts.
deepStrictEqual(parseBefore(prompt.text), check);
deepStrictEqual(parseBefore(sectionPrompt.text), parse(sectionPrompt.text));

/** Wall time per bench, for the per-prompt and per-block summary. */
const timings = new Map<string, { total: number; runs: number }>();

function timed(name: string, run: () => void): () => void {
  return () => {
    const start = performance.now();
    run();
    const entry = timings.get(name) ?? { total: 0, runs: 0 };
    entry.total += performance.now() - start;
    entry.runs++;
    timings.set(name, entry);
  };
}

const PARSE = `parsePrompt: ${prompt.lines} lines, ${prompt.blocks} Lua blocks (createPromptParser, runtime loaded)`;
const PARSE_BEFORE = "before: the same, Markdown read by one remark parse of the whole text";
const SECTIONS = "parsePrompt: 1,000 sections of a heading, a prose line and one Lua block";
const SECTIONS_BEFORE = "before: the same 1,000 sections, one remark parse of the whole text";
const MARKDOWN = "reference: unified + remark-parse + remark-frontmatter on the same text";
const COMPILE = `reference: compile the ${prompt.blocks} blocks alone`;

describe("prompt parsing", () => {
  bench(
    PARSE,
    timed(PARSE, () => {
      const result = parse(prompt.text);
      if (!result.ok) throw new Error(result.error.message);
    }),
  );

  bench(
    PARSE_BEFORE,
    timed(PARSE_BEFORE, () => {
      const result = parseBefore(prompt.text);
      if (!result.ok) throw new Error(result.error.message);
    }),
  );

  bench(
    SECTIONS,
    timed(SECTIONS, () => {
      const result = parse(sectionPrompt.text);
      if (!result.ok) throw new Error(result.error.message);
    }),
  );

  bench(
    SECTIONS_BEFORE,
    timed(SECTIONS_BEFORE, () => {
      const result = parseBefore(sectionPrompt.text);
      if (!result.ok) throw new Error(result.error.message);
    }),
  );

  bench(
    MARKDOWN,
    timed(MARKDOWN, () => {
      markdownOnly.parse(prompt.text);
    }),
  );

  bench(
    COMPILE,
    timed(COMPILE, () => {
      prompt.sources.forEach((source, i) => {
        const result = lua.compile(source, chunkNameForLine(firstLines[i] ?? 1));
        if (!result.ok) throw new Error(result.diagnostic);
      });
    }),
  );
});

afterAll(() => {
  const mean = (name: string): number => {
    const entry = timings.get(name);
    return entry === undefined ? Number.NaN : entry.total / entry.runs;
  };
  const rows = [PARSE, PARSE_BEFORE, MARKDOWN, COMPILE].map((name) => ({
    bench: name,
    "ms per prompt": mean(name).toFixed(2),
    "µs per block": ((mean(name) * 1000) / prompt.blocks).toFixed(1),
  }));
  for (const name of [SECTIONS, SECTIONS_BEFORE]) {
    rows.push({
      bench: name,
      "ms per prompt": mean(name).toFixed(2),
      "µs per block": ((mean(name) * 1000) / sectionPrompt.blocks).toFixed(1),
    });
  }
  console.log(
    `\nparser summary (${prompt.lines} lines, ${prompt.blocks} blocks; means over all runs):`,
  );
  console.table(rows);
  console.log(
    `after / before: ${(mean(PARSE) / mean(PARSE_BEFORE)).toFixed(3)} (bench prompt), ` +
      `${(mean(SECTIONS) / mean(SECTIONS_BEFORE)).toFixed(3)} (1,000 sections: ` +
      `${((mean(SECTIONS) * 1000) / sectionPrompt.blocks).toFixed(1)} µs per section after, ` +
      `${((mean(SECTIONS_BEFORE) * 1000) / sectionPrompt.blocks).toFixed(1)} µs before)`,
  );
});
