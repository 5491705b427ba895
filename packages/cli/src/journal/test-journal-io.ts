import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIo } from "../io";

/** A CliIo over the real file system that records what the CLI printed (the journal's tests). */
export function diskIo(): CliIo & { out: string; err: string; reset(): void } {
  const io = {
    out: "",
    err: "",
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
    async readFile(path: string): Promise<Uint8Array> {
      return new Uint8Array(await readFile(path));
    },
    reset() {
      io.out = "";
      io.err = "";
    },
  };
  return io;
}

/** A fresh temporary folder and a way to remove every folder made so far. */
export function tempFolders(): { make(): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make() {
      const folder = mkdtempSync(join(tmpdir(), "runvil-cli-journal-"));
      made.push(folder);
      return folder;
    },
    removeAll() {
      for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
    },
  };
}
