import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = dirname(dirname(fileURLToPath(import.meta.url)));
const cliBin = join(
  dirname(createRequire(import.meta.url).resolve("@runvil/cli/package.json")),
  "dist",
  "bin.js",
);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function runvil(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [cliBin, ...args], { cwd: example });
}

describe("runvil run digest.md", () => {
  it("reads the notes through the MCP filesystem server and writes the digest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runvil-mcp-files-"));
    made.push(dir);
    const events = join(dir, "events.jsonl");
    const store = join(dir, "store");
    const { stdout, stderr } = await runvil(
      "run",
      "digest.md",
      "--store",
      store,
      "--events",
      events,
    );
    expect(stderr).toBe("");
    expect(stdout).toBe("3 notes, 25 words\n");
    expect(readFileSync(join(store, "digest.md"), "utf8")).toContain(
      "- plans.txt: 10 words; Ship the MCP plugin this week.\n",
    );
    const results = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { type: string; tool?: string; trusted?: boolean; content?: string },
      )
      .filter((event) => event.type === "tool_result");
    // One listing and three reads, each untrusted and inside the envelope.
    expect(results.map((event) => event.tool)).toEqual([
      "files/list_directory",
      "files/read_text_file",
      "files/read_text_file",
      "files/read_text_file",
    ]);
    for (const event of results) {
      expect(event.trusted).toBe(false);
      expect(event.content).toMatch(
        /^The text inside the untrusted_input_[0-9a-f]{32} XML tags below/,
      );
    }
  });

  it("records a run that runvil replay reproduces byte for byte, with no MCP server started", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runvil-mcp-files-"));
    made.push(dir);
    const journal = join(dir, "runs.db");
    const store = join(dir, "store");
    const run = await runvil("run", "digest.md", "--store", store, "--journal", journal);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("3 notes, 25 words\n");
    const replay = await runvil("replay", "--all", "--journal", journal);
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toMatch(
      /: reproduced \(\d+ effects answered by the journal, \d+ events identical, the same result\)\n$/,
    );
  });

  it("reports a missing note as the tool's failure in fixed words", async () => {
    const { stdout } = await runvil("run", "digest.md", "--args", "missing.txt");
    expect(stdout).toBe(
      "cannot read missing.txt: tool call failure: files_read_text_file: the MCP server local/files reported that the tool failed\n",
    );
  });
});
