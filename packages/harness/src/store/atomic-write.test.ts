import * as nodeFs from "node:fs/promises";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEMP_NAME_ATTEMPTS, tempFileName, writeFileAtomically } from "./atomic-write";
import type { DirectoryStoreFileSystem } from "./directory-fs";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "runvil-atomic-write-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A file system whose first `taken` exclusive opens fail as if the name existed. */
function withTakenNames(taken: number): { fs: DirectoryStoreFileSystem; tried: string[] } {
  const tried: string[] = [];
  const fs: DirectoryStoreFileSystem = {
    ...nodeFs,
    open: (async (...args: Parameters<typeof nodeFs.open>) => {
      if (args[1] === "wx") {
        tried.push(String(args[0]));
        if (tried.length <= taken) {
          throw Object.assign(new Error(`EEXIST: file already exists, open '${args[0]}'`), {
            code: "EEXIST",
          });
        }
      }
      return nodeFs.open(...args);
    }) as typeof nodeFs.open,
  };
  return { fs, tried };
}

describe("tempFileName", () => {
  it("names a temporary file .runvil-tmp-{pid}-{n}-{8 hex digits}, a new one each time", () => {
    const names = Array.from({ length: 1000 }, () => tempFileName());
    for (const name of names) {
      expect(name).toMatch(new RegExp(`^\\.runvil-tmp-${process.pid}-[1-9][0-9]*-[0-9a-f]{8}$`));
    }
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("writeFileAtomically", () => {
  it("takes another temporary name when one is taken (a leftover under a reused pid)", async () => {
    const { fs, tried } = withTakenNames(2);
    await writeFileAtomically(
      fs,
      dir,
      join(dir, "note.md"),
      new TextEncoder().encode("new"),
      false,
    );
    expect(await readFile(join(dir, "note.md"), "utf8")).toBe("new");
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBe(3);
    expect(await readdir(dir)).toEqual(["note.md"]);
  });

  it("fails with EEXIST and leaves the target as it was when every name it tries is taken", async () => {
    await writeFile(join(dir, "note.md"), "before");
    const { fs, tried } = withTakenNames(TEMP_NAME_ATTEMPTS);
    await expect(
      writeFileAtomically(fs, dir, join(dir, "note.md"), new TextEncoder().encode("new"), true),
    ).rejects.toMatchObject({ code: "EEXIST" });
    expect(tried).toHaveLength(TEMP_NAME_ATTEMPTS);
    expect(await readFile(join(dir, "note.md"), "utf8")).toBe("before");
    expect(await readdir(dir)).toEqual(["note.md"]);
  });

  it("does not remove a file whose name it found taken", async () => {
    const leftover = join(dir, tempFileName());
    await writeFile(leftover, "someone else's");
    const fs: DirectoryStoreFileSystem = {
      ...nodeFs,
      open: (async (...args: Parameters<typeof nodeFs.open>) =>
        // Every exclusive open meets the leftover.
        nodeFs.open(args[1] === "wx" ? leftover : args[0], args[1], args[2])) as typeof nodeFs.open,
    };
    await expect(
      writeFileAtomically(fs, dir, join(dir, "note.md"), new TextEncoder().encode("new"), false),
    ).rejects.toMatchObject({ code: "EEXIST" });
    expect(await readFile(leftover, "utf8")).toBe("someone else's");
  });
});
