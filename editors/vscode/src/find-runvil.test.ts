import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findRunvil } from "./find-runvil";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), "runvil-vscode-"));
  made.push(root);
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  writeFileSync(join(root, "node_modules", ".bin", "runvil"), "#!/bin/sh\n");
  mkdirSync(join(root, "prompts", "deep"), { recursive: true });
  return root;
}

describe("findRunvil", () => {
  it("takes the nearest node_modules/.bin/runvil from the prompt's folder up", () => {
    const root = project();
    expect(findRunvil(join(root, "prompts", "deep"), "", "linux")).toEqual({
      command: join(root, "node_modules", ".bin", "runvil"),
      args: [],
      shell: false,
    });
  });

  it("prefers the runvil.path setting, and falls back to runvil on the PATH", () => {
    const root = project();
    expect(findRunvil(root, " /opt/runvil/bin/runvil ", "linux").command).toBe(
      "/opt/runvil/bin/runvil",
    );
    expect(findRunvil("/", "", "linux", () => false)).toEqual({
      command: "runvil",
      args: [],
      shell: false,
    });
  });

  it("runs Windows .cmd shims through the shell", () => {
    const seen: string[] = [];
    const command = findRunvil("/work/app", "", "win32", (path) => {
      seen.push(path);
      return path.endsWith("runvil.cmd") && path.startsWith("/work/node_modules");
    });
    expect(command).toEqual({
      command: join("/work", "node_modules", ".bin", "runvil.cmd"),
      args: [],
      shell: true,
    });
    expect(seen[0]).toBe(join("/work/app", "node_modules", ".bin", "runvil.cmd"));
    expect(findRunvil("/", "C:\\tools\\runvil.cmd", "win32").shell).toBe(true);
  });
});
