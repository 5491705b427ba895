// Cases of /work/shared/conformance/lua/01-blocks-and-vms.yaml that need only the Engine core.
import { describe, expect, it } from "vitest";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const lua = (code: string): string => `\`\`\`lua\n${code}\n\`\`\``;

describe("01-blocks-and-vms", () => {
  it("shout upper-cases the argument string", async () => {
    const run = await runTestPrompt(
      promptText(`# Shout\n\n${lua("return string.upper(args)")}\n`),
      {
        args: "hi",
      },
    );
    expect(resultText(run)).toBe("HI");
  });

  it("counting uses ordinary Lua syntax", async () => {
    const code = [
      "-- add up 1 to 4 with a numeric for loop",
      "local n = 0",
      "for i = 1, 4 do",
      "  n = n + i",
      "end",
      "local t = {}",
      "local i = 1",
      "while i <= 3 do",
      '  t[i] = "item " .. i',
      "  i = i + 1",
      "end",
      "return 'sum ' .. n .. ': ' .. table.concat(t, \", \")",
    ].join("\n");
    const run = await runTestPrompt(promptText(`# Counting\n\n${lua(code)}\n`));
    expect(resultText(run)).toBe("sum 10: item 1, item 2, item 3");
  });

  it("a double-quoted and a single-quoted literal return their text", async () => {
    const double = await runTestPrompt(promptText(`# D\n\n## Main\n\n${lua('return "hello"')}\n`));
    const single = await runTestPrompt(promptText(`# S\n\n## Main\n\n${lua("return 'early'")}\n`));
    expect([resultText(double), resultText(single)]).toEqual(["hello", "early"]);
  });

  it("lifetimes shows globals last within a section and end with it", async () => {
    const body = [
      "# Lifetimes",
      "## First",
      lua(
        "note = 'set in the first block'\nfunction decorate(value) return '<' .. value .. '>' end\nsaved_log = log",
      ),
      "This prose sits between the two blocks of the section.",
      lua(
        "assert(note == 'set in the first block')\nassert(decorate('input') == '<input>')\nsaved_log('still here')",
      ),
      "## Second",
      lua(
        "assert(note == nil, 'note ended with the first section VM')\nassert(decorate == nil)\nreturn 'fresh VM'",
      ),
    ].join("\n\n");
    const run = await runTestPrompt(promptText(`${body}\n`));
    expect(resultText(run)).toBe("fresh VM");
    expect(run.port.checkpoints()).toEqual(["Lua: still here"]);
  });

  it("a counter global starts over in the next section VM", async () => {
    const body = [
      "# Counters",
      "## First",
      lua("counter = (counter or 0) + 1\ncounter = counter + 1\nvar.first = counter"),
      "## Second",
      lua("counter = (counter or 0) + 1\nreturn var.first .. ',' .. counter"),
    ].join("\n\n");
    expect(resultText(await runTestPrompt(promptText(`${body}\n`)))).toBe("2,1");
  });

  it("a function a library defines reads nil in a later section", async () => {
    const body = [
      "# Greeter lifetime",
      "## First",
      lua("require '## greeter'\nvar.first = greet('x')"),
      "## Second",
      lua("return var.first .. '|' .. tostring(greet)"),
      "## greeter",
      lua("function greet(name) return 'hi ' .. name end"),
    ].join("\n\n");
    expect(resultText(await runTestPrompt(promptText(`${body}\n`)))).toBe("hi x|nil");
  });

  it("a function reads globals when it is called", async () => {
    const code =
      "function greet() return greeting .. ' world' end\ngreeting = 'hello'\nlocal first = greet()\ngreeting = 'goodbye'\nreturn first .. '|' .. greet()";
    const run = await runTestPrompt(promptText(`# Late globals\n\n## Main\n\n${lua(code)}\n`));
    expect(resultText(run)).toBe("hello world|goodbye world");
  });

  it("argv is frozen outside the H1 pass", async () => {
    const code =
      "local ok, err = pcall(function() argv = {} end)\nreturn tostring(ok) .. '|' .. tostring(err)";
    const run = await runTestPrompt(promptText(`# Frozen argv\n\n## Main\n\n${lua(code)}\n`));
    expect(resultText(run)).toMatch(/^false\|.*argv is frozen outside H1: assign it in H1 only/);
  });

  it("global is a contextual keyword usable as a local name", async () => {
    const run = await runTestPrompt(
      promptText(
        `# Local global\n\n## Main\n\n${lua("local global = 1\nreturn tostring(global)")}\n`,
      ),
    );
    expect(resultText(run)).toBe("1");
  });

  it("reserved global names compile as local names", async () => {
    const code = "local store = 1\nlocal pairs = 2\nreturn tostring(store + pairs)";
    const run = await runTestPrompt(promptText(`# Reserved locals\n\n## Main\n\n${lua(code)}\n`));
    expect(resultText(run)).toBe("3");
  });

  it("notes writes then reads through suspending store calls", async () => {
    const code = "store.write('note.md', 'hello')\nreturn store.read('note.md')";
    const run = await runTestPrompt(promptText(`# Notes\n\n## Keep\n\n${lua(code)}\n`));
    expect(resultText(run)).toBe("hello");
    expect(await run.port.files()).toEqual({ "note.md": "hello" });
  });

  it("coroutine reads nil in a block", async () => {
    const run = await runTestPrompt(
      promptText(`# No coroutine\n\n## Main\n\n${lua("return tostring(coroutine)")}\n`),
    );
    expect(resultText(run)).toBe("nil");
  });
});
