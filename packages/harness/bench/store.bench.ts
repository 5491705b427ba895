import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as fs from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { DirectoryStore, MemoryStore } from "../src/index";

/**
 * Per-operation cost of the store backends against plain fs.promises calls
 * in the same run: read, write and append of small files, and a glob over
 * 1,000 files. Each backend and the reference get their own copy of the same
 * 1,000 files (10 directories of 100, ~4 KiB each).
 */

const FILE_COUNT = 1000;
const CONTENT = `${"x".repeat(63)}\n`.repeat(64); // 4 KiB
const RECORD = `${JSON.stringify({ n: 1, tag: "bench", text: "y".repeat(30) })}\n`;
const OPTIONS = { time: 600, warmupTime: 100 };

const base = mkdtempSync(join(tmpdir(), "runvil-store-bench-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const paths = Array.from({ length: FILE_COUNT }, (_, i) => `dir${i % 10}/file${i}.md`);

/** A directory holding the 1,000 files. */
function seededDirectory(name: string): string {
  const root = join(base, name);
  for (let d = 0; d < 10; d++) mkdirSync(join(root, `dir${d}`), { recursive: true });
  for (const path of paths) writeFileSync(join(root, path), CONTENT);
  return root;
}

const memory = new MemoryStore({
  files: Object.fromEntries(paths.map((path) => [path, CONTENT])),
});
const directorySynced = new DirectoryStore(seededDirectory("synced"));
const directoryUnsynced = new DirectoryStore(seededDirectory("unsynced"), { sync: false });
const referenceRoot = seededDirectory("reference");

let cursor = 0;
/** The next of the 1,000 paths, round robin (so appends grow each file slowly). */
const nextPath = (): string => {
  cursor = (cursor + 1) % FILE_COUNT;
  return paths[cursor] ?? "";
};

/** Keeps results alive so the work cannot be dropped. */
const sink = { length: 0 };

describe("read a 4 KiB file", () => {
  bench(
    "reference: fs.promises.readFile(utf8)",
    async () => {
      sink.length += (await fs.readFile(join(referenceRoot, nextPath()), "utf8")).length;
    },
    OPTIONS,
  );
  bench(
    "MemoryStore.read",
    async () => {
      sink.length += (await memory.read(nextPath())).length;
    },
    OPTIONS,
  );
  bench(
    "DirectoryStore.read",
    async () => {
      sink.length += (await directoryUnsynced.read(nextPath())).length;
    },
    OPTIONS,
  );
});

describe("write a 4 KiB file (replace)", () => {
  bench(
    "reference: fs.promises.writeFile (not atomic, no fsync)",
    async () => {
      await fs.writeFile(join(referenceRoot, nextPath()), CONTENT);
    },
    OPTIONS,
  );
  bench(
    "MemoryStore.write",
    async () => {
      await memory.write(nextPath(), CONTENT);
    },
    OPTIONS,
  );
  bench(
    "DirectoryStore.write (sync: false)",
    async () => {
      await directoryUnsynced.write(nextPath(), CONTENT);
    },
    OPTIONS,
  );
  bench(
    "DirectoryStore.write (fsync, the default)",
    async () => {
      await directorySynced.write(nextPath(), CONTENT);
    },
    OPTIONS,
  );
});

describe("append a 64-byte record to a ~4 KiB file", () => {
  bench(
    "reference: fs.promises.appendFile (O_APPEND, no fsync)",
    async () => {
      await fs.appendFile(join(referenceRoot, nextPath()), RECORD);
    },
    OPTIONS,
  );
  bench(
    "MemoryStore.append",
    async () => {
      await memory.append(nextPath(), RECORD);
    },
    OPTIONS,
  );
  bench(
    "DirectoryStore.append (sync: false)",
    async () => {
      await directoryUnsynced.append(nextPath(), RECORD);
    },
    OPTIONS,
  );
  bench(
    "DirectoryStore.append (fsync, the default)",
    async () => {
      await directorySynced.append(nextPath(), RECORD);
    },
    OPTIONS,
  );
});

describe("glob **/file1*.md over 1,000 files", () => {
  const regex = /^[^/]+\/file1[^/]*\.md$/;
  bench(
    "reference: fs.promises.readdir(recursive) + RegExp + sort",
    async () => {
      const names = await fs.readdir(referenceRoot, { recursive: true });
      sink.length += names.filter((name) => regex.test(name)).sort().length;
    },
    OPTIONS,
  );
  bench(
    "MemoryStore.glob",
    async () => {
      sink.length += (await memory.glob("**/file1*.md")).length;
    },
    OPTIONS,
  );
  bench(
    "DirectoryStore.glob",
    async () => {
      sink.length += (await directoryUnsynced.glob("**/file1*.md")).length;
    },
    OPTIONS,
  );
});
