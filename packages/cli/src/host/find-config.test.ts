import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findConfigFile } from "./find-config";

const root = mkdtempSync(join(tmpdir(), "runvil-find-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(root, "t-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    if (path.endsWith("/")) mkdirSync(join(dir, path), { recursive: true });
    else writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("findConfigFile", () => {
  it("finds the config in the start directory, else the nearest one upward", async () => {
    const dir = tree({
      "repo/.git/": "",
      "repo/runvil.config.json": "{}",
      "repo/a/runvil.config.json": "{}",
      "repo/a/b/c/p.md": "",
    });
    expect(await findConfigFile(join(dir, "repo/a/b/c"))).toBe(
      join(dir, "repo/a/runvil.config.json"),
    );
    expect(await findConfigFile(join(dir, "repo/a"))).toBe(join(dir, "repo/a/runvil.config.json"));
    expect(await findConfigFile(join(dir, "repo"))).toBe(join(dir, "repo/runvil.config.json"));
  });

  it("searches the directory holding .git and stops there", async () => {
    const dir = tree({ "runvil.config.json": "{}", "repo/.git/": "", "repo/src/p.md": "" });
    expect(await findConfigFile(join(dir, "repo/src"))).toBeUndefined();
    const worktree = tree({
      "runvil.config.json": "{}",
      "wt/.git": "gitdir: elsewhere",
      "wt/x/": "",
    });
    expect(await findConfigFile(join(worktree, "wt/x"))).toBeUndefined();
  });

  it("ignores a directory named runvil.config.json", async () => {
    const dir = tree({ ".git/": "", "runvil.config.json/": "", "sub/": "" });
    expect(await findConfigFile(join(dir, "sub"))).toBeUndefined();
  });

  it("gives a config outside the working directory as an absolute path", async () => {
    // The tests run in packages/cli: the repository root (with .git) has no config.
    expect(await findConfigFile(".")).toBeUndefined();
    const found = await findConfigFile("../../examples/acme-notes");
    expect(found).toBe(join(process.cwd(), "../../examples/acme-notes/runvil.config.json"));
  });
});
