import { describe, expect, it } from "vitest";
import { type ConformancePrompt, linesCases, namesCases, usesCases } from "./conformance.fixtures";
import { expectError, expectPrompt, realParser } from "./test-support";
import type { LuaBlock, Prompt } from "./types";

const promptText = (c: ConformancePrompt) => `${c.prompt.join("\n")}\n`;

function caseNamed(cases: ConformancePrompt[], name: string): ConformancePrompt {
  const found = cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no conformance case named ${name}`);
  return found;
}

async function parseCase(cases: ConformancePrompt[], name: string): Promise<Prompt> {
  return expectPrompt((await realParser())(promptText(caseNamed(cases, name))));
}

/** The block whose lines hold `line`. */
function blockAt(prompt: Prompt, line: number): LuaBlock {
  const found = prompt.blocks.find((block) => block.firstLine <= line && line <= block.lastLine);
  if (found === undefined) throw new Error(`no block holds line ${line}`);
  return found;
}

const withParseError = [...linesCases, ...usesCases, ...namesCases].filter(
  (c) => c.parseError !== undefined,
);

describe("every parse_error expectation of the conformance cases", () => {
  it("covers the cases it should", () => {
    expect(withParseError.length).toBe(17);
  });

  it.each(withParseError.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const expected = c.parseError;
    const error = expectError((await realParser())(promptText(c)));
    expect(error.kind).toBe(expected?.kind);
    if (expected?.message !== undefined) expect(error.message).toBe(expected.message);
    if (expected?.message_contains !== undefined)
      expect(error.message).toContain(expected.message_contains);
    if (expected?.message_matches !== undefined)
      expect(error.message).toMatch(new RegExp(expected.message_matches));
  });
});

describe("exact parse errors of the uses: cases", () => {
  const NOT_STRING = "expected a Pack id, such as `web`, or vendor/name, such as `acme/web`";

  it.each([
    [
      "a uses entry that is a number fails the parse",
      `invalid frontmatter: uses entry 1 is a number: ${NOT_STRING} (line 5, column 8)`,
      5,
      8,
    ],
    [
      "a uses entry that is a map of settings fails the parse",
      `invalid frontmatter: uses entry 1 is a mapping: ${NOT_STRING} (line 6, column 5)`,
      6,
      5,
    ],
    [
      "a three-segment uses entry fails the parse",
      "invalid frontmatter: invalid uses entry `acme/web/fetch`: a uses entry is a Pack id, such as `web`, or vendor/name, such as `acme/web` (line 5, column 8)",
      5,
      8,
    ],
  ])("%s", async (name, message, line, column) => {
    const error = expectError((await realParser())(promptText(caseNamed(usesCases, name))));
    expect(error).toEqual({ kind: "Frontmatter", message, line, column });
  });

  it("parses the valid uses: cases with their entries in order", async () => {
    const prompt = await parseCase(
      usesCases,
      "the notice lists every declared Pack that cannot serve at once",
    );
    expect(prompt.frontmatter.uses.map((entry) => entry.fullName)).toEqual([
      "runvil/web",
      "runvil/user-input",
    ]);
    const toolId = await parseCase(
      namesCases,
      "a tool id under uses is read as a vendor/name and refused at prepare",
    );
    expect(toolId.frontmatter.uses.map((entry) => [entry.vendor, entry.packId])).toEqual([
      ["web", "fetch"],
    ]);
  });
});

describe("exact compile errors of the line-number cases", () => {
  it("broken-check: the whole message is the compile error, with the block's source", async () => {
    const error = expectError(
      (await realParser())(
        promptText(caseNamed(linesCases, "broken-check fails the parse with a compile error")),
      ),
    );
    expect(error).toEqual({
      kind: "Lua",
      message:
        "lua compilation error at section `Check` epilog (line 14): [string \"line 14\"]:2: unexpected symbol near 'return'",
      source: "local secret =\nreturn secret",
    });
  });

  it("labels a compile error under the H1 title as H1 `{title}` lua", async () => {
    const error = expectError(
      (await realParser())(
        promptText(caseNamed(linesCases, "a compile error under the H1 title fails the parse")),
      ),
    );
    expect(error.message).toMatch(
      /^lua compilation error at H1 `Broken H1` lua \(line 10\): \[string "line 10"\]:1: /,
    );
    expect(error.source).toBe("local x = = 1");
  });

  it("carries the prologue's source", async () => {
    const error = expectError(
      (await realParser())(
        promptText(
          caseNamed(linesCases, "a syntax error in a prologue fence is located as the prologue"),
        ),
      ),
    );
    expect(error.source).toBe("private_payload =");
  });
});

describe("location labels and lines of the line-number cases", () => {
  it("verify-answer: a prologue whose Lua starts on line 12 holds the error call on line 14", async () => {
    const prompt = await parseCase(
      linesCases,
      "verify-answer points at the absolute prompt line of the error call",
    );
    const block = blockAt(prompt, 14);
    expect(block).toMatchObject({
      label: "section `Check` prologue",
      fenceLine: 11,
      firstLine: 12,
      lastLine: 15,
      closeLine: 16,
    });
    expect(block.chunkName).toBe("line 12");
    expect(block.firstLine + 3 - 1).toBe(14);
  });

  it("a prologue right under its heading: fence on line 10, Lua from line 11", async () => {
    const prompt = await parseCase(
      linesCases,
      "a prologue failure on its second line reports that line",
    );
    expect(blockAt(prompt, 11)).toMatchObject({
      label: "section `Work` prologue",
      fenceLine: 10,
      firstLine: 11,
    });
  });

  it("an epilog on line 14", async () => {
    const prompt = await parseCase(linesCases, "an epilog failure reports its own line");
    expect(blockAt(prompt, 14)).toMatchObject({
      label: "section `Check` epilog",
      role: "epilog",
      firstLine: 14,
    });
  });

  it("four blocks in ## S have four distinct locations; the third starts on line 23", async () => {
    const prompt = await parseCase(linesCases, "the third of four blocks reports its own line");
    expect(prompt.sections[0]?.blocks.map((block) => [block.label, block.firstLine])).toEqual([
      ["section `S` prologue", 11],
      ["section `S` lua 2", 17],
      ["section `S` lua 3", 23],
      ["section `S` epilog", 30],
    ]);
    expect(blockAt(prompt, 24).label).toBe("section `S` lua 3");
  });

  it("a block under the H1 title whose code starts on line 9", async () => {
    const prompt = await parseCase(linesCases, "a block under the H1 title reports its own line");
    expect(
      prompt.title.blocks.map((block) => [block.label, block.role, block.firstLine, block.section]),
    ).toEqual([["H1 `T` lua", "title", 9, null]]);
  });

  it("a block deep in a long prompt starts on line 112 and holds line 113", async () => {
    const prompt = await parseCase(
      linesCases,
      "a block deep in a long prompt reports its exact line",
    );
    expect(blockAt(prompt, 113)).toMatchObject({
      label: "section `Deep` epilog",
      firstLine: 112,
      chunkName: "line 112",
    });
  });

  it("the raw chunk marker of a block on line 12 is line 12", async () => {
    const prompt = await parseCase(
      linesCases,
      "a caught runtime error keeps Lua's own block marker",
    );
    expect(blockAt(prompt, 12).chunkName).toBe("line 12");
  });

  it("a long section name appears in full", async () => {
    const prompt = await parseCase(
      linesCases,
      "a long section name appears in full in the location",
    );
    expect(blockAt(prompt, 12).label).toBe("section `Gather Background Research Notes` prologue");
  });

  it("sections that share a name carry their heading lines", async () => {
    const prompt = await parseCase(
      linesCases,
      "a section sharing its name is labeled with its heading line",
    );
    expect(prompt.blocks.map((block) => [block.label, block.firstLine])).toEqual([
      ["section `A` prologue", 12],
      ["section `Helpers` (line 15) prologue", 18],
      ["section `B` prologue", 24],
      ["section `Helpers` (line 27) prologue", 30],
    ]);
  });

  it("a ## Helpers shares the name of a ### Helpers", async () => {
    const prompt = await parseCase(
      linesCases,
      "the second section sharing a name is labeled with its own heading line",
    );
    expect(blockAt(prompt, 24).label).toBe("section `Helpers` (line 21) prologue");
    expect(blockAt(prompt, 18).label).toBe("section `Helpers` (line 15) prologue");
  });

  it("a uniquely named section has no line in its label", async () => {
    const prompt = await parseCase(
      linesCases,
      "a section with a unique name gets no line number in its label",
    );
    expect(blockAt(prompt, 36).label).toBe("section `C` prologue");
  });

  it("library blocks: prologue, then lua 2, lua 3, lua 4", async () => {
    const prompt = await parseCase(
      linesCases,
      "a raise in a later library block maps to that block",
    );
    const lib = prompt.sections.find((section) => section.name === "lib");
    expect(lib?.blocks.map((block) => [block.label, block.firstLine])).toEqual([
      ["section `lib` prologue", 19],
      ["section `lib` lua 2", 23],
      ["section `lib` lua 3", 27],
      ["section `lib` lua 4", 31],
    ]);
  });

  it("a library block whose Lua starts on line 40 holds line 43", async () => {
    const prompt = await parseCase(
      linesCases,
      "a raise on the fourth line of a library load reports that line",
    );
    expect(blockAt(prompt, 43)).toMatchObject({
      label: "section `lib` prologue",
      firstLine: 40,
      lastLine: 43,
    });
  });

  it("the same prompt with CRLF line endings gives the same lines and labels", async () => {
    const c = caseNamed(linesCases, "a section sharing its name is labeled with its heading line");
    const crlf = expectPrompt((await realParser())(`${c.prompt.join("\r\n")}\r\n`));
    const lf = await parseCase(linesCases, c.name);
    const facts = (prompt: Prompt) =>
      prompt.blocks.map((block) => [block.label, block.fenceLine, block.firstLine, block.source]);
    expect(facts(crlf)).toEqual(facts(lf));
    expect(crlf.lineCount).toBe(lf.lineCount);
  });
});
