import { describe, expect, it } from "vitest";
import { parsePrompt } from "./parse";
import { expectError, realParser, withFrontmatter } from "./test-support";
import type { ParseResult } from "./types";

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A parse result is always a value: a prompt, or an error with a known kind and a message. */
function expectWellFormed(result: ParseResult): void {
  if (result.ok) {
    expect(result.prompt.frontmatter.runvil).toBe(0);
    return;
  }
  expect(["Encoding", "Frontmatter", "Markdown", "Lua"]).toContain(result.error.kind);
  expect(result.error.message.length).toBeGreaterThan(0);
  expect(result.error.message[0]).toBe(result.error.message[0]?.toLowerCase());
}

const MARKDOWN_PIECES = [
  "\n",
  "\n\n",
  "# ",
  "## ",
  "### ",
  "```",
  "```lua\n",
  "~~~",
  "---",
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
  "runvil: 0\n",
];

describe("parsing never throws", () => {
  it("returns errors for empty and near-empty input", async () => {
    const parse = await realParser();
    for (const input of [
      "",
      "\n",
      "---",
      "---\n",
      "---\n---",
      "---\n---\n",
      "\ufeff",
      " ",
      "\r\n\r\n",
    ]) {
      const result = parse(input);
      expectWellFormed(result);
      expect(result.ok).toBe(false);
    }
    expect(expectError(parse("---\n---\n")).message).toBe(
      "invalid frontmatter: missing required key `name` (line 1)",
    );
  });

  it("returns values for random bytes", async () => {
    const parse = await realParser();
    const next = random(1);
    for (let round = 0; round < 200; round++) {
      const bytes = new Uint8Array(Math.floor(next() * 400));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
      expectWellFormed(parse(bytes));
    }
  });

  it("returns values for random Markdown after a valid frontmatter", async () => {
    const parse = await realParser();
    const next = random(2);
    let parsed = 0;
    for (let round = 0; round < 300; round++) {
      let body = "# T\n";
      const pieces = Math.floor(next() * 60);
      for (let i = 0; i < pieces; i++)
        body += MARKDOWN_PIECES[Math.floor(next() * MARKDOWN_PIECES.length)];
      const result = parse(withFrontmatter(body));
      expectWellFormed(result);
      if (result.ok) parsed++;
    }
    expect(parsed).toBeGreaterThan(0);
  });

  it("returns values for random frontmatter", async () => {
    const parse = await realParser();
    const next = random(3);
    const yamlPieces = [
      "name",
      "uses",
      "models",
      "args",
      ":",
      " ",
      "\n",
      "  ",
      "- ",
      "[",
      "]",
      "{",
      "}",
      ",",
      "&a",
      "*a",
      "!!binary",
      "'",
      '"',
      "0",
      "web",
      "acme/web",
      "?",
      "|",
      ">",
      "#",
    ];
    for (let round = 0; round < 300; round++) {
      let yaml = "";
      const pieces = Math.floor(next() * 40);
      for (let i = 0; i < pieces; i++) yaml += yamlPieces[Math.floor(next() * yamlPieces.length)];
      expectWellFormed(parse(`---\n${yaml}\n---\n# T\n`));
    }
  });

  it("refuses deeply nested lists and blockquotes quickly, naming the line", async () => {
    const parse = await realParser();
    const stairs = Array.from({ length: 200 }, (_, i) => `${" ".repeat(i * 2)}- x`).join("\n");
    expect(expectError(parse(withFrontmatter("# T", stairs)))).toEqual({
      kind: "Markdown",
      message: "lists and blockquotes are nested more than 32 levels deep (line 39)",
      line: 39,
    });
    expect(expectError(parse(withFrontmatter("# T", `${"- ".repeat(100_000)}x`))).line).toBe(7);
    expect(expectError(parse(withFrontmatter("# T", `${">".repeat(100_000)} x`))).line).toBe(7);
  });

  it("parses moderately nested lists", async () => {
    const parse = await realParser();
    const nested = Array.from({ length: 20 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n");
    expectWellFormed(parse(withFrontmatter("# T", "## S", nested)));
    expect(parse(withFrontmatter("# T", "## S", nested)).ok).toBe(true);
  });

  it("parses huge lines", async () => {
    const parse = await realParser();
    const result = parse(
      withFrontmatter(
        "# T",
        "## S",
        "x".repeat(2_000_000),
        "```lua",
        `local s = '${"y".repeat(1_000_000)}'`,
        "```",
      ),
    );
    expect(result.ok && result.prompt.blocks[0]?.firstLine).toBe(10);
  });

  it("returns values for many headings and blocks", async () => {
    const parse = await realParser();
    const body = Array.from(
      { length: 2_000 },
      (_, i) => `${"#".repeat(2 + (i % 5))} S${i % 7}\n\`\`\`lua\nx = ${i}\n\`\`\``,
    );
    const result = parse(withFrontmatter("# T", ...body));
    expect(result.ok && result.prompt.blocks.length).toBe(2_000);
  });

  it("turns inputs of the wrong type into Encoding errors", async () => {
    for (const input of [null, undefined, 42, {}, [1, 2], new ArrayBuffer(4)]) {
      const result = await parsePrompt(input as unknown as string);
      expect(result.ok === false && result.error.kind).toBe("Encoding");
    }
  });
});
