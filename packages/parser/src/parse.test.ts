import { describe, expect, it } from "vitest";
import { createPromptParser, parsePrompt } from "./parse";
import {
  expectError,
  expectPrompt,
  fakeLua,
  realParser,
  text,
  withFrontmatter,
} from "./test-support";
import type { CompileReport, Prompt, Section } from "./types";

const PROMPT = text(
  "---", // 1
  "name: tour", // 2
  "description: Shows every part of a prompt.", // 3
  "runvil: 0", // 4
  "uses: [web]", // 5
  "models:", // 6
  "  writer: {}", // 7
  "---", // 8
  "", // 9
  "# Tour", // 10
  "", // 11
  "Welcome text under the title.", // 12
  "", // 13
  "```lua", // 14
  "argv.topic = argv.topic or 'lua'", // 15
  "```", // 16
  "", // 17
  "## Main", // 18
  "", // 19
  "```lua", // 20
  "var.n = 1", // 21
  "```", // 22
  "", // 23
  "Write about {{ var.n }}.", // 24
  "", // 25
  "```lua", // 26
  "return prose", // 27
  "```", // 28
  "", // 29
  "### Worker", // 30
  "", // 31
  "Only prose here.", // 32
  "", // 33
  "## lib", // 34
  "```lua", // 35
  "function helper() end", // 36
  "```", // 37
);

function withoutBytecode(section: Section | undefined) {
  if (section === undefined) return undefined;
  return {
    ...section,
    items: section.items.map((item) => (item.kind === "lua" ? { ...item, bytecode: "…" } : item)),
    blocks: section.blocks.map((block) => block.label),
  };
}

describe("parsePrompt", () => {
  it("builds the whole Prompt", async () => {
    const prompt = expectPrompt(await parsePrompt(PROMPT, { path: "tour.md" }));
    expect(prompt.path).toBe("tour.md");
    expect(prompt.text).toBe(PROMPT);
    expect(prompt.lineCount).toBe(37);
    expect(prompt.frontmatter).toMatchObject({ name: "tour", startLine: 1, endLine: 8 });
    expect(prompt.title).toMatchObject({ title: "Tour", line: 10, lastLine: 17 });
    expect(prompt.title.items.map((item) => (item.kind === "prose" ? item : item.label))).toEqual([
      {
        kind: "prose",
        text: "Welcome text under the title.",
        firstLine: 12,
        lastLine: 12,
        listItems: [],
      },
      "H1 `Tour` lua",
    ]);
    expect(prompt.sections.length).toBe(3);
    expect(withoutBytecode(prompt.sections[0])).toEqual({
      index: 0,
      name: "Main",
      level: 2,
      reference: "## Main",
      headingLine: 18,
      lastLine: 29,
      parent: null,
      children: [1],
      topLevel: true,
      nameShared: false,
      hasProse: true,
      items: [
        {
          kind: "lua",
          index: 0,
          role: "prologue",
          label: "section `Main` prologue",
          section: 0,
          sectionName: "Main",
          fenceLine: 20,
          firstLine: 21,
          lastLine: 21,
          closeLine: 22,
          source: "var.n = 1",
          chunkName: "line 21",
          bytecode: "…",
        },
        {
          kind: "prose",
          text: "Write about {{ var.n }}.",
          firstLine: 24,
          lastLine: 24,
          listItems: [],
        },
        {
          kind: "lua",
          index: 1,
          role: "epilog",
          label: "section `Main` epilog",
          section: 0,
          sectionName: "Main",
          fenceLine: 26,
          firstLine: 27,
          lastLine: 27,
          closeLine: 28,
          source: "return prose",
          chunkName: "line 27",
          bytecode: "…",
        },
      ],
      blocks: ["section `Main` prologue", "section `Main` epilog"],
    });
    expect(prompt.sections[1]).toMatchObject({
      name: "Worker",
      level: 3,
      parent: 0,
      topLevel: false,
      hasProse: true,
      blocks: [],
    });
    expect(prompt.sections[2]).toMatchObject({
      name: "lib",
      headingLine: 34,
      lastLine: 37,
      topLevel: true,
      hasProse: false,
    });
    expect(prompt.topLevel).toEqual([0, 2]);
    expect(prompt.sectionCount).toBe(2);
    expect(prompt.blocks.map((block) => block.label)).toEqual([
      "H1 `Tour` lua",
      "section `Main` prologue",
      "section `Main` epilog",
      "section `lib` prologue",
    ]);
  });

  it("compiles each block to loadable bytecode", async () => {
    const prompt = expectPrompt(await parsePrompt(PROMPT));
    for (const block of prompt.blocks) {
      // A Lua 5.4 binary chunk starts with ESC "Lua".
      expect([...block.bytecode.subarray(0, 4)]).toEqual([0x1b, 0x4c, 0x75, 0x61]);
    }
  });

  it("counts only the shallowest level as top-level", async () => {
    const prompt = expectPrompt(
      await parsePrompt(
        withFrontmatter("# T", "## Parent", "### Worker", "```lua", "return 1", "```"),
      ),
    );
    expect(prompt.sectionCount).toBe(1);
    expect(prompt.sections.map((section) => section.topLevel)).toEqual([true, false]);
  });

  it("gives a prompt without sections a section count of 0", async () => {
    const prompt = expectPrompt(await parsePrompt(withFrontmatter("# T", "Just prose.")));
    expect(prompt.sectionCount).toBe(0);
    expect(prompt.blocks).toEqual([]);
  });

  it("parses bytes, with a BOM, the same as text", async () => {
    const bytes = new TextEncoder().encode(`\ufeff${PROMPT}`);
    const fromBytes = expectPrompt(await parsePrompt(bytes));
    expect(fromBytes.text).toBe(PROMPT);
    expect(fromBytes.blocks.map((block) => block.firstLine)).toEqual([15, 21, 27, 36]);
  });

  it("normalizes CRLF: same lines, sources without carriage returns", async () => {
    const prompt = expectPrompt(await parsePrompt(PROMPT.replace(/\n/g, "\r\n")));
    expect(prompt.text).toBe(PROMPT);
    expect(prompt.blocks.map((block) => [block.firstLine, block.source])).toEqual([
      [15, "argv.topic = argv.topic or 'lua'"],
      [21, "var.n = 1"],
      [27, "return prose"],
      [36, "function helper() end"],
    ]);
  });

  it("keeps a block's source exactly, indentation and blank lines included", async () => {
    const prompt = expectPrompt(
      await parsePrompt(
        withFrontmatter("# T", "  ```lua", "  local x = 1", "", "    return x", "  ```"),
      ),
    );
    expect(prompt.blocks[0]).toMatchObject({
      source: "  local x = 1\n\n    return x",
      firstLine: 8,
      lastLine: 10,
    });
  });

  it("gives an empty block an empty source", async () => {
    const prompt = expectPrompt(await parsePrompt(withFrontmatter("# T", "## S", "```lua", "```")));
    expect(prompt.blocks[0]).toMatchObject({
      source: "",
      fenceLine: 8,
      firstLine: 9,
      lastLine: 8,
      closeLine: 9,
    });
  });

  it("puts the path on errors", async () => {
    const error = expectError(await parsePrompt("# no frontmatter\n", { path: "notes/bad.md" }));
    expect(error.path).toBe("notes/bad.md");
    expect(error.kind).toBe("Frontmatter");
  });

  it("reports compile stages per block, tagged with the section name", async () => {
    const reports: CompileReport[] = [];
    expectPrompt(await parsePrompt(PROMPT, { onCompileReport: (report) => reports.push(report) }));
    expect(
      reports.map((report) => `${report.stage}:${report.section}:${report.underTitle}`),
    ).toEqual([
      "started:Tour:true",
      "succeeded:Tour:true",
      "started:Main:false",
      "succeeded:Main:false",
      "started:Main:false",
      "succeeded:Main:false",
      "started:lib:false",
      "succeeded:lib:false",
    ]);
  });

  it("reports the first failing block in file order", async () => {
    const error = expectError(
      await parsePrompt(
        withFrontmatter(
          "# T",
          "## A",
          "```lua",
          "x = = 1",
          "```",
          "## B",
          "```lua",
          "return (",
          "```",
        ),
      ),
    );
    expect(error.message).toMatch(
      /^lua compilation error at section `A` prologue \(line 9\): \[string "line 9"\]:1: /,
    );
    expect(error.line).toBeUndefined();
    expect(error.column).toBeUndefined();
  });

  it("checks the frontmatter before the Markdown and the Markdown before Lua", async () => {
    expect(
      expectError(
        await parsePrompt(text("---", "name: x", "---", "no title", "```lua", "x = =", "```")),
      ).kind,
    ).toBe("Frontmatter");
    expect(
      expectError(await parsePrompt(withFrontmatter("no title", "```lua", "x = =", "```"))).kind,
    ).toBe("Markdown");
  });
});

describe("createPromptParser", () => {
  it("parses synchronously with the runtime it is given", () => {
    const parse = createPromptParser(fakeLua);
    const prompt: Prompt = expectPrompt(parse(withFrontmatter("# T", "```lua", "x = 1", "```")));
    expect(new TextDecoder().decode(prompt.blocks[0]?.bytecode)).toBe("line 8");
  });

  it("lets an exception from onCompileReport leave the parse", async () => {
    const parse = await realParser();
    expect(() =>
      parse(withFrontmatter("# T", "```lua", "x = 1", "```"), {
        onCompileReport: () => {
          throw new Error("listener failed");
        },
      }),
    ).toThrow("listener failed");
  });
});
