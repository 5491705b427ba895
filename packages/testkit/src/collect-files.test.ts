import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectScenarioFiles, ScenarioPathError } from "./collect-files";

let root = "";

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "runvil-testkit-"));
  const files = [
    "suite/b.yaml",
    "suite/a.yml",
    "suite/notes.md",
    "suite/nested/c.yaml",
    "suite/a-b.yaml",
    "suite/.hidden/x.yaml",
    "suite/node_modules/y.yaml",
    "empty/readme.txt",
    "single.txt",
  ];
  for (const file of files) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "cases: []\n");
  }
  symlinkSync(join(root, "suite"), join(root, "suite", "nested", "loop"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("collectScenarioFiles", () => {
  it("finds *.yaml and *.yml recursively, sorted by path, skipping hidden and node_modules", () => {
    const suite = join(root, "suite");
    expect(collectScenarioFiles([suite])).toEqual([
      join(suite, "a-b.yaml"),
      join(suite, "a.yml"),
      join(suite, "b.yaml"),
      join(suite, "nested", "c.yaml"),
    ]);
  });

  it("takes a named file whatever its extension", () => {
    expect(collectScenarioFiles([join(root, "single.txt")])).toEqual([join(root, "single.txt")]);
  });

  it("keeps argument order and lists a file once", () => {
    const b = join(root, "suite", "b.yaml");
    const single = join(root, "single.txt");
    expect(collectScenarioFiles([single, b, join(root, "suite"), b])).toEqual([
      single,
      b,
      join(root, "suite", "a-b.yaml"),
      join(root, "suite", "a.yml"),
      join(root, "suite", "nested", "c.yaml"),
    ]);
  });

  it("returns nothing for no paths", () => {
    expect(collectScenarioFiles([])).toEqual([]);
  });

  it("throws a clear error for a missing path", () => {
    const missing = join(root, "nope.yaml");
    expect(() => collectScenarioFiles([missing])).toThrow(
      new ScenarioPathError(missing, `no such file or directory: ${missing}`),
    );
  });

  it("throws for a directory without scenario files", () => {
    const empty = join(root, "empty");
    let caught: unknown;
    try {
      collectScenarioFiles([empty]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScenarioPathError);
    expect(caught).toMatchObject({
      path: empty,
      message: `no scenario files (*.yaml, *.yml) under ${empty}`,
    });
  });
});

describe("ScenarioPathError.fromFsError", () => {
  it("words the usual file system errors", () => {
    expect(ScenarioPathError.fromFsError("p", { code: "EACCES" }).message).toBe(
      "permission denied: p",
    );
    expect(ScenarioPathError.fromFsError("p", new Error("boom")).message).toBe(
      "cannot read p: boom",
    );
  });
});
