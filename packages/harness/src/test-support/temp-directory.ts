import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { StoreText } from "@runvil/sdk";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test file's tests. */
export function tempDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "runvil-harness-"));
  made.push(directory);
  return directory;
}

/** Writes `files` (store path -> contents) under `root` directly on disk. */
export function seedDirectory(root: string, files: Readonly<Record<string, StoreText>>): void {
  for (const [path, contents] of Object.entries(files)) {
    const absolute = join(root, ...path.split("/"));
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, contents);
  }
}
