import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import { describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";
import { echoPluginDir } from "../test-plugin";
import { type CheckDiagnostic, requirementsDiagnostics } from "./diagnostics";

const clean = `---
name: demo
description: A demo prompt.
runvil: 0
uses: [subagents]
---

# Demo

## Work

\`\`\`lua
return 1
\`\`\`
`;

/** Runs `runvil check --json` on the files and returns its exit code and diagnostics. */
async function diagnose(
  files: Record<string, string | Uint8Array>,
  args: string[] = Object.keys(files),
): Promise<{ code: number; diagnostics: CheckDiagnostic[] }> {
  const io = memoryIo(files);
  const code = await runCli(["check", "--json", ...args], io);
  expect(io.err).toBe("");
  const report = JSON.parse(io.out) as { diagnostics: CheckDiagnostic[] };
  return { code, diagnostics: report.diagnostics };
}

describe("runvil check --json diagnostics", () => {
  it("gives no diagnostics for a clean file", async () => {
    expect(await diagnose({ "demo.md": clean })).toEqual({ code: 0, diagnostics: [] });
  });

  it("puts a frontmatter error on its uses: entry, with its column", async () => {
    const text = clean.replace("uses: [subagents]", "uses: [subagents, acme/web/fetch]");
    const { code, diagnostics } = await diagnose({ "bad.md": text });
    expect(code).toBe(1);
    expect(diagnostics).toEqual([
      {
        file: "bad.md",
        line: 5,
        column: 19,
        endLine: 5,
        endColumn: 34,
        severity: "error",
        message: expect.stringMatching(
          /^invalid frontmatter: invalid uses entry `acme\/web\/fetch`/,
        ),
        code: "Frontmatter",
      },
    ]);
  });

  it("puts a Lua compile error on the line Lua names in its block", async () => {
    const text = clean.replace("return 1", "local x =\nreturn x");
    const { code, diagnostics } = await diagnose({ "lua.md": text });
    expect(code).toBe(1);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      file: "lua.md",
      line: 14,
      column: 1,
      endLine: 14,
      endColumn: 9,
      severity: "error",
      code: "Lua",
    });
    expect(diagnostics[0]?.message).toMatch(
      /^lua compilation error at section `Work` prologue \(line 13\)/,
    );
  });

  it("puts a Markdown error on its line", async () => {
    const text = clean.replace("# Demo\n", "Intro.\n\n# Demo\n");
    const { diagnostics } = await diagnose({ "md.md": text });
    expect(diagnostics).toEqual([
      {
        file: "md.md",
        line: 8,
        column: 1,
        endLine: 8,
        endColumn: 7,
        severity: "error",
        message: "expected the `# Title` heading after the frontmatter, found text (line 8)",
        code: "Markdown",
      },
    ]);
  });

  it("puts an Encoding error on its line", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("---\nname: x\n"), 0xff, 0x0a]);
    const { code, diagnostics } = await diagnose({ "bin.md": bytes });
    expect(code).toBe(1);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ file: "bin.md", line: 3, code: "Encoding" });
  });

  it("gives one diagnostic per requirements notice line, at the uses: entry it names", async () => {
    const text = clean.replace("uses: [subagents]", "uses: [web, acme/poop]");
    const { code, diagnostics } = await diagnose({ "demo.md": text });
    expect(code).toBe(1);
    expect(diagnostics).toEqual([
      {
        file: "demo.md",
        line: 5,
        column: 8,
        endLine: 5,
        endColumn: 11,
        severity: "error",
        message: "web needs runvil/search-provider, and the environment provides none",
        code: "RequirementsUnmet",
      },
      {
        file: "demo.md",
        line: 5,
        column: 13,
        endLine: 5,
        endColumn: 22,
        severity: "error",
        message: "poop is unavailable: acme/poop is not installed",
        code: "RequirementsUnmet",
      },
    ]);
  });

  it("puts a model role that cannot be bound on its models: line", async () => {
    const { config } = echoPluginDir();
    const text = clean.replace(
      "uses: [subagents]",
      "uses: [subagents]\nmodels:\n  writer: { model: echo-model }\n  critic: { model: gpt-5 }",
    );
    const { code, diagnostics } = await diagnose({ "demo.md": text }, [
      "demo.md",
      "--config",
      config,
    ]);
    expect(code).toBe(1);
    expect(diagnostics).toEqual([
      {
        file: "demo.md",
        line: 8,
        column: 3,
        endLine: 8,
        endColumn: 27,
        severity: "error",
        // With model providers in the CLI, a `fix:` hint line follows (see the next test).
        message: expect.stringMatching(
          /^model role critic cannot be bound: `gpt-5` is not in this host's model catalog(\nfix: .+)?$/,
        ),
        code: "RequirementsUnmet",
      },
    ]);
  });

  it("reports a file that cannot be read and a Host that cannot be set up at line 1", async () => {
    const missing = await diagnose({}, ["missing.md"]);
    expect(missing).toEqual({
      code: 1,
      diagnostics: [
        {
          file: "missing.md",
          line: 1,
          column: 1,
          severity: "error",
          message: "no such file",
          code: "File",
        },
      ],
    });
    const host = await diagnose({ "demo.md": clean }, ["demo.md", "--config", "nope.json"]);
    expect(host.code).toBe(1);
    expect(host.diagnostics).toHaveLength(1);
    expect(host.diagnostics[0]).toMatchObject({
      file: "demo.md",
      line: 1,
      column: 1,
      code: "Host",
    });
    expect(host.diagnostics[0]?.message).toMatch(/^nope\.json: cannot read the file/);
  });

  it("lists the diagnostics of every file in order", async () => {
    const bad = clean.replace("uses: [subagents]", "uses: [acme/poop]");
    const { diagnostics } = await diagnose({ "a.md": clean, "b.md": bad }, [
      "a.md",
      "b.md",
      "c.md",
    ]);
    expect(diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      "b.md RequirementsUnmet",
      "c.md File",
    ]);
  });

  it("adds an indented line after a notice line to that line's message", async () => {
    const parse = createPromptParser(await loadLuaRuntime());
    const text = clean.replace("uses: [subagents]", "uses: [acme/poop]");
    const parsed = parse(new TextEncoder().encode(text), { path: "demo.md" });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const notice = [
      "the environment cannot satisfy this prompt:",
      "- poop is unavailable: acme/poop is not installed",
      "  fix: install acme/poop",
    ].join("\n");
    expect(requirementsDiagnostics("demo.md", parsed.prompt, notice)).toEqual([
      {
        file: "demo.md",
        line: 5,
        column: 8,
        endLine: 5,
        endColumn: 17,
        severity: "error",
        message: "poop is unavailable: acme/poop is not installed\nfix: install acme/poop",
        code: "RequirementsUnmet",
      },
    ]);
  });
});
