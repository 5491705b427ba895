import { chunkNameForLine, loadLuaRuntime } from "@runvil/lua";
import remarkFrontmatter from "remark-frontmatter";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { afterAll, bench, describe } from "vitest";
import { createPromptParser } from "../src/index";
import { generatePrompt } from "./generate-prompt";

const lua = await loadLuaRuntime();
const parse = createPromptParser(lua);
const markdownOnly = unified().use(remarkParse).use(remarkFrontmatter, ["yaml"]).freeze();
const prompt = generatePrompt();
const firstLines = prompt.sources.map((_, i) => i + 1);

// Sanity: the generated prompt parses and has the announced shape.
const check = parse(prompt.text);
if (!check.ok) throw new Error(check.error.message);
if (check.prompt.blocks.length !== prompt.blocks) throw new Error("block count mismatch");

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
  const rows = [PARSE, MARKDOWN, COMPILE].map((name) => {
    const entry = timings.get(name);
    const perPrompt = entry === undefined ? Number.NaN : entry.total / entry.runs;
    return {
      bench: name,
      "ms per prompt": perPrompt.toFixed(2),
      "µs per block": ((perPrompt * 1000) / prompt.blocks).toFixed(1),
    };
  });
  console.log(
    `\nparser summary (${prompt.lines} lines, ${prompt.blocks} blocks; means over all runs):`,
  );
  console.table(rows);
});
