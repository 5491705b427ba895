import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";
import { initTemplateDir } from "./init";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "runvil-init-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The built binary in `cwd`, its exit code and output (a failure is returned, not thrown). */
async function runvil(
  cwd: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };
  return run(process.execPath, [bin, ...args], { cwd, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("runvil init", () => {
  it("creates a project whose scenario tests pass and whose prompt checks, with no key", async () => {
    const dir = join(root, "fresh");
    const io = memoryIo({});
    expect(await runCli(["init", dir], io)).toBe(0);
    expect(io.err).toBe("");
    expect(io.out).toContain("  .gitignore\n");
    expect(io.out).toContain("  prompts/summarize.scenarios.yaml\n");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".runvil/\n");
    const config = JSON.parse(readFileSync(join(dir, "runvil.config.json"), "utf8")) as {
      providers: Record<string, { module: string; apiKeyEnv: string }>;
    };
    expect(config.providers.openai).toEqual({
      module: "@ai-sdk/openai",
      apiKeyEnv: "OPENAI_API_KEY",
    });

    const tested = await runvil(dir, ["test", "prompts"]);
    expect(tested.stderr).toBe("");
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain("2 passed");
    const checked = await runvil(dir, ["check", "prompts/summarize.md"]);
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain(
      "model writer: openai:gpt-5-mini (provider openai, 400000-token context, tools)",
    );
  });

  it("runs the example against the configured provider, which asks for the key", async () => {
    const dir = join(root, "keyless");
    expect(await runCli(["init", dir], memoryIo({}))).toBe(0);
    const ran = await runvil(dir, ["run", "prompts/summarize.md", "--args", "Some text."]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain("set the environment variable OPENAI_API_KEY");
  });

  it("takes a new folder, an empty one, and one holding only .git", async () => {
    const empty = join(root, "empty");
    mkdirSync(join(empty, ".git"), { recursive: true });
    expect(await runCli(["init", empty], memoryIo({}))).toBe(0);
    const nested = join(root, "a", "b");
    expect(await runCli(["init", nested], memoryIo({}))).toBe(0);
    expect(readFileSync(join(nested, "prompts", "summarize.md"), "utf8")).toMatch(
      /^---\nname: summarize\n/,
    );
  });

  it("refuses a folder that holds files, naming it and what it holds, and writes nothing", async () => {
    const dir = join(root, "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const io = memoryIo({});
    expect(await runCli(["init", dir], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toBe(
      `runvil init: ${dir} is not empty (it holds notes.txt); runvil init writes only into an empty or new folder\n`,
    );
    expect(() => readFileSync(join(dir, "runvil.config.json"))).toThrow();
  });

  it("refuses a path that is a file", async () => {
    const file = join(root, "file.txt");
    writeFileSync(file, "x");
    const io = memoryIo({});
    expect(await runCli(["init", file], io)).toBe(1);
    expect(io.err).toBe(`runvil init: ${file} is not a folder\n`);
  });

  it("finds its templates from the built bundle's folder as from the sources", async () => {
    const fromDist = await initTemplateDir(new URL("../../dist/bin.js", import.meta.url).href);
    expect(fromDist).toBe(await initTemplateDir());
    await expect(initTemplateDir("file:///nowhere/x.js")).rejects.toThrow(
      "the starter project's templates are missing (no templates/init above file:///nowhere/x.js)",
    );
  });
});
