import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { realParser, withFrontmatter } from "./test-support";
import type { ParseResult } from "./types";

/**
 * Property tests (fast-check, pinned exactly) for the parser: any text or bytes give a parse
 * result, never a thrown error, and every error is typed; generated valid prompts parse to the
 * sections and blocks they were written with; and the equivalences the design allows hold
 * (docs/design/prompt-format.md: CRLF and LF read alike, a string and its UTF-8 bytes read
 * alike, and a prompt's normalized text parses to the same prompt). Every property runs with
 * the fixed seed below and the run count beside it, so CI runs the same cases every time; a
 * failure prints its seed and path.
 */

/** The seed of every property in this file. */
const SEED = 20261202;

const KINDS = ["Encoding", "Frontmatter", "Markdown", "Lua"];

/** Pieces of Markdown, YAML and Lua that prompts are made of, and some that break them. */
const PIECES = [
  "\n",
  "\n\n",
  "# ",
  "## ",
  "### ",
  "```",
  "```lua\n",
  "~~~",
  "---",
  "---\n",
  "- ",
  "> ",
  "1. ",
  "    ",
  "text",
  "*",
  "_",
  "[",
  "]",
  "(",
  ")",
  "<!--",
  "-->",
  "<div>",
  "{{ var.x }}",
  "\\",
  "`",
  "=",
  "\t",
  "local x = 1\n",
  "return (",
  "end",
  "\r\n",
  "\r",
  "é",
  "😀",
  "\u0000",
  "name: x\n",
  "description: d\n",
  "runvil: 0\n",
  "uses: [web]\n",
  "args:\n",
  "  a: {}\n",
  "&a [1]\n",
  "*a\n",
  "\ufeff",
];

/** Text that is mostly prompt-shaped: a valid frontmatter, often, then random pieces. */
const promptLike = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 60 }),
  )
  .map(([head, pieces]) => (head ? withFrontmatter("", "# T", "") : "") + pieces.join(""));

/** Checks that a result is a prompt, or an error of a known kind with a lowercase-first message. */
function expectTyped(result: ParseResult, lineCount: number): void {
  if (result.ok) return;
  const { kind, message, line } = result.error;
  expect(KINDS).toContain(kind);
  expect(message.length).toBeGreaterThan(0);
  expect(message[0]).toBe(message[0]?.toLowerCase());
  if (line !== undefined) {
    expect(Number.isInteger(line)).toBe(true);
    expect(line).toBeGreaterThanOrEqual(0);
    expect(line).toBeLessThanOrEqual(lineCount + 1);
  }
}

/** One generated section: its level, name, and items (prose lines, list items, Lua blocks). */
interface GenSection {
  level: 2 | 3;
  name: string;
  items: (
    | { kind: "prose"; text: string }
    | { kind: "list"; items: string[] }
    | { kind: "lua"; source: string }
  )[];
}

const word = fc.stringMatching(/^[A-Za-z][a-z0-9]{0,7}$/);
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
const luaSource = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 999 }).map((n) => `var.n = (var.n or 0) + ${n}`),
      word.map((w) => `local ${w.toLowerCase()}_v = '${w}'`),
      fc.constant("if var.n then log('n') end"),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((lines) => lines.join("\n"));
const item = fc.oneof(
  words.map((text) => ({ kind: "prose" as const, text })),
  fc
    .array(words, { minLength: 1, maxLength: 3 })
    .map((items) => ({ kind: "list" as const, items })),
  luaSource.map((source) => ({ kind: "lua" as const, source })),
);
const sections = fc
  .array(
    fc.record({
      level: fc.constantFrom<2 | 3>(2, 3),
      name: words,
      items: fc.array(item, { maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((list): GenSection[] => list.map((s, i) => (i === 0 ? { ...s, level: 2 } : s)));

/** The prompt text for generated sections. */
function promptText(title: string, list: readonly GenSection[]): string {
  const body: string[] = ["", `# ${title}`, ""];
  for (const section of list) {
    body.push(`${"#".repeat(section.level)} ${section.name}`, "");
    for (const part of section.items) {
      if (part.kind === "prose") body.push(part.text, "");
      else if (part.kind === "list") body.push(...part.items.map((text) => `- ${text}`), "");
      else body.push("```lua", part.source, "```", "");
    }
  }
  return withFrontmatter(...body);
}

describe("properties: the parser", () => {
  // 500 runs of prompt-shaped text.
  it("never throws on prompt-shaped text, and every error is typed", async () => {
    const parse = await realParser();
    fc.assert(
      fc.property(promptLike, (text) => {
        expectTyped(parse(text), text.split(/\r\n|\r|\n/).length);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  // 300 runs of arbitrary bytes (invalid UTF-8 included).
  it("never throws on arbitrary bytes", async () => {
    const parse = await realParser();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        expectTyped(parse(bytes), bytes.length + 1);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  // 200 runs of generated valid prompts (1 to 8 sections of prose, lists and blocks).
  it("parses a generated prompt to the sections and blocks it was written with", async () => {
    const parse = await realParser();
    fc.assert(
      fc.property(words, sections, (title, list) => {
        const result = parse(promptText(title, list));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const { prompt } = result;
        expect(prompt.title.title).toBe(title);
        expect(prompt.sections.map((s) => [s.level, s.name])).toEqual(
          list.map((s) => [s.level, s.name]),
        );
        expect(prompt.sections.map((s) => s.blocks.map((b) => b.source))).toEqual(
          list.map((s) => s.items.flatMap((part) => (part.kind === "lua" ? [part.source] : []))),
        );
        expect(
          prompt.sections.map((s) =>
            s.items.flatMap((i) => (i.kind === "prose" ? i.listItems.map((l) => l.text) : [])),
          ),
        ).toEqual(
          list.map((s) => s.items.flatMap((part) => (part.kind === "list" ? part.items : []))),
        );
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  // 100 runs: CRLF and LF, a string and its bytes, and the normalized text read alike.
  it("reads CRLF as LF, bytes as their string, and its own normalized text as the same prompt", async () => {
    const parse = await realParser();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(words, sections).map(([title, list]) => promptText(title, list)),
          promptLike,
        ),
        (text) => {
          const lf = parse(text);
          // (A text with a CR already has other line ends once LF becomes CRLF.)
          if (!text.includes("\r")) expect(parse(text.replace(/\n/g, "\r\n"))).toEqual(lf);
          expect(parse(new TextEncoder().encode(text))).toEqual(lf);
          if (lf.ok) expect(parse(lf.prompt.text)).toEqual(lf);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });
});
