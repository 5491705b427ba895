import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toEditorDiagnostic } from "./editor-diagnostic";
import { type CheckCommand, runCheck } from "./run-check";

// The real CLI of the workspace, started as the extension starts it.
const require = createRequire(import.meta.url);
const cliBin = join(dirname(require.resolve("@runvil/cli/package.json")), "dist", "bin.js");
const runvil: CheckCommand = { command: process.execPath, args: [cliBin], shell: false };

const dir = mkdtempSync(join(tmpdir(), "runvil-vscode-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function prompt(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const FRONTMATTER = "---\nname: p\ndescription: a prompt\nrunvil: 0\n---\n\n# P\n\n";

describe("runCheck against the runvil CLI", () => {
  it("reports nothing for a prompt that passes", async () => {
    const file = prompt("ok.md", `${FRONTMATTER}## Step\n\n\`\`\`lua\nreturn 1\n\`\`\`\n`);
    expect(await runCheck(runvil, file, dir)).toEqual({ ok: true, diagnostics: [] });
  });

  it("puts a Lua compile error at the failing line of its block, in editor terms", async () => {
    // Line 13 is the block's second Lua line, `local = 2`; the block starts at line 12.
    const text = `${FRONTMATTER}## Step\n\n\`\`\`lua\nlocal x = 1\nlocal = 2\n\`\`\`\n`;
    const file = prompt("lua.md", text);
    const report = await runCheck(runvil, file, dir);
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toHaveLength(1);
    const [diagnostic] = report.diagnostics;
    expect(diagnostic).toMatchObject({ file, line: 13, severity: "error", code: "Lua" });
    const lines = text.split("\n");
    const mapped = toEditorDiagnostic(diagnostic!, (line) => lines[line]?.length, lines.length);
    expect(lines[mapped.start.line]).toBe("local = 2");
    expect(mapped.start).toEqual({ line: 12, character: 0 });
    expect(mapped.end).toEqual({ line: 12, character: 9 });
    expect(mapped.message).toMatch(/^lua compilation error at section `Step` prologue \(line 12\)/);
  });

  it("puts a frontmatter error at its line", async () => {
    const file = prompt("fm.md", "---\nname: 3\ndescription: d\nrunvil: 0\n---\n\n# P\n");
    const report = await runCheck(runvil, file, dir);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        line: 2,
        code: "Frontmatter",
        message: "invalid frontmatter: `name` must be a string, found a number (line 2)",
      }),
    ]);
  });

  it("rejects, naming the command, when it is missing or prints no report", async () => {
    const missing: CheckCommand = { command: join(dir, "no-runvil"), args: [], shell: false };
    await expect(runCheck(missing, "x.md", dir)).rejects.toThrow(
      /no-runvil check --json x\.md failed: the command was not found/,
    );
    const noisy: CheckCommand = {
      command: process.execPath,
      args: ["-e", "console.log('not a report')"],
      shell: false,
    };
    await expect(runCheck(noisy, "x.md", dir)).rejects.toThrow(
      "check --json x.md: runvil check --json did not print JSON: not a report",
    );
    const crash: CheckCommand = {
      command: process.execPath,
      args: ["-e", "console.error('cannot start'); process.exit(3)"],
      shell: false,
    };
    await expect(runCheck(crash, "x.md", dir)).rejects.toThrow("failed: cannot start");
  });
});
