import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import type { FileHandle } from "node:fs/promises";
import * as nodeFs from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seedDirectory, tempDirectory } from "../test-support/temp-directory";
import { storeFailure } from "../testing/store-failure";
import type { DirectoryStoreFileSystem } from "./directory-fs";
import { DirectoryStore } from "./directory-store";
import { readAllFiles } from "./read-all-files";

/** Every entry name under `directory`, recursively, as `/`-joined relative paths. */
function entriesOnDisk(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" }).sort();
}

/** A Node error with `code`, as the file system throws it. */
function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** A store on a fresh directory seeded with `files`, and the directory. */
function storeWith(
  files: Record<string, string> = {},
  fs?: DirectoryStoreFileSystem,
): { store: DirectoryStore; root: string; outside: string } {
  const base = tempDirectory();
  const root = join(base, "store");
  const outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "secret");
  seedDirectory(root, files);
  return {
    store: new DirectoryStore(root, fs ? { sync: false, fs } : { sync: false }),
    root,
    outside,
  };
}

describe("DirectoryStore confinement", () => {
  it("refuses a symbolic link to a directory outside the root, and never follows it", async () => {
    const { store, root, outside } = storeWith();
    symlinkSync(outside, join(root, "out"));
    const expected = {
      reason: "invalid_path",
      path: "out/secret.txt",
      message: "out/secret.txt: invalid path: out is a symbolic link",
    };
    expect(await storeFailure(store.read("out/secret.txt"))).toEqual(expected);
    expect(await storeFailure(store.write("out/secret.txt", "pwned"))).toEqual(expected);
    expect(await storeFailure(store.append("out/secret.txt", "pwned"))).toEqual(expected);
    expect(await storeFailure(store.edit("out/secret.txt", "secret", "pwned"))).toEqual(expected);
    expect(await storeFailure(store.delete("out/secret.txt"))).toEqual(expected);
    expect(await storeFailure(store.exists("out/secret.txt"))).toEqual(expected);
    expect(await storeFailure(store.write("out/new.txt", "x"))).toEqual({
      ...expected,
      path: "out/new.txt",
      message: "out/new.txt: invalid path: out is a symbolic link",
    });
    expect(await storeFailure(store.list("out"))).toEqual({
      reason: "invalid_path",
      path: "out",
      message: "out: invalid path: out is a symbolic link",
    });
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("refuses a symbolic link to a file outside, as the last segment", async () => {
    const { store, root, outside } = storeWith();
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    const expected = {
      reason: "invalid_path",
      path: "link.txt",
      message: "link.txt: invalid path: link.txt is a symbolic link",
    };
    expect(await storeFailure(store.read("link.txt"))).toEqual(expected);
    expect(await storeFailure(store.write("link.txt", "pwned"))).toEqual(expected);
    expect(await storeFailure(store.append("link.txt", "pwned"))).toEqual(expected);
    expect(await storeFailure(store.delete("link.txt"))).toEqual(expected);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(lstatSync(join(root, "link.txt")).isSymbolicLink()).toBe(true);
  });

  it("refuses a link in the middle of a path, even one that stays inside the root", async () => {
    const { store, root } = storeWith({ "real/inner/f.txt": "x" });
    symlinkSync(join(root, "real", "inner"), join(root, "real", "alias"));
    expect(await storeFailure(store.read("real/alias/f.txt"))).toEqual({
      reason: "invalid_path",
      path: "real/alias/f.txt",
      message: "real/alias/f.txt: invalid path: real/alias is a symbolic link",
    });
  });

  it("leaves links out of list and glob", async () => {
    const { store, root, outside } = storeWith({ "kept.txt": "x" });
    symlinkSync(outside, join(root, "out"));
    symlinkSync(join(outside, "secret.txt"), join(root, "secret.txt"));
    expect(await store.list()).toEqual(["kept.txt"]);
    expect(await store.glob("**")).toEqual(["kept.txt"]);
    expect(await store.glob("out/*")).toEqual([]);
    expect(await store.glob("*.txt")).toEqual(["kept.txt"]);
  });

  it("allows the root itself to be a symbolic link", async () => {
    const base = tempDirectory();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "root-link"));
    const store = new DirectoryStore(join(base, "root-link"), { sync: false });
    await store.write("a/b.txt", "through the root link");
    expect(readFileSync(join(base, "real", "a", "b.txt"), "utf8")).toBe("through the root link");
  });

  it("never creates anything outside the root for `..`, absolute or backslash paths", async () => {
    const { store, root, outside } = storeWith();
    for (const path of ["../outside/x.txt", "/tmp/x.txt", "..\\outside\\x.txt", "a/../../x"]) {
      expect((await storeFailure(store.write(path, "x"))).reason).toBe("invalid_path");
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(readdirSync(root)).toEqual([]);
  });

  it("accepts paths at the length limits and creates them on disk", async () => {
    const { store } = storeWith();
    const segment = "é".repeat(127); // 254 bytes
    const path = `${segment}/${segment}/${segment}/${"x".repeat(255)}`; // 1021 bytes
    await store.write(path, "deep");
    expect(await store.read(path)).toBe("deep");
    expect(await store.list()).toEqual([path]);
  });
});

describe("DirectoryStore atomicity", () => {
  it("keeps the old file when the rename fails, and removes the temporary file", async () => {
    const fs: DirectoryStoreFileSystem = {
      ...nodeFs,
      rename: async () => {
        throw errno("EIO");
      },
    };
    const { store, root } = storeWith({ "note.md": "written before" }, fs);
    expect(await storeFailure(store.write("note.md", "new text"))).toEqual({
      reason: "io_error",
      path: "note.md",
      message: "note.md: write failed (EIO)",
    });
    expect(await storeFailure(store.append("note.md", " more"))).toEqual({
      reason: "io_error",
      path: "note.md",
      message: "note.md: append failed (EIO)",
    });
    expect(await storeFailure(store.edit("note.md", "before", "after"))).toEqual({
      reason: "io_error",
      path: "note.md",
      message: "note.md: edit failed (EIO)",
    });
    expect(readFileSync(join(root, "note.md"), "utf8")).toBe("written before");
    expect(entriesOnDisk(root)).toEqual(["note.md"]);
  });

  it("keeps the old file when writing the temporary file stops halfway (disk full)", async () => {
    const fs: DirectoryStoreFileSystem = {
      ...nodeFs,
      open: (async (...args: Parameters<typeof nodeFs.open>) => {
        const handle = await nodeFs.open(...args);
        if (args[1] !== "wx") return handle;
        return new Proxy(handle, {
          get(target, property, receiver) {
            if (property === "writeFile") {
              return async (data: Uint8Array) => {
                await target.write(data.subarray(0, 3));
                throw errno("ENOSPC");
              };
            }
            const value: unknown = Reflect.get(target, property, receiver);
            return typeof value === "function" ? value.bind(target) : value;
          },
        }) satisfies FileHandle;
      }) as typeof nodeFs.open,
    };
    const { store, root } = storeWith({ "note.md": "written before" }, fs);
    expect(await storeFailure(store.write("note.md", "a longer new text"))).toEqual({
      reason: "io_error",
      path: "note.md",
      message: "note.md: write failed (ENOSPC)",
    });
    expect(await storeFailure(store.write("new/dir/file.md", "text"))).toEqual({
      reason: "io_error",
      path: "new/dir/file.md",
      message: "new/dir/file.md: write failed (ENOSPC)",
    });
    expect(readFileSync(join(root, "note.md"), "utf8")).toBe("written before");
    expect(entriesOnDisk(root)).toEqual(["note.md"]);
  });

  it("survives a crash between the temporary write and the rename", async () => {
    // The crash: the rename never happens and no cleanup runs.
    const crashing: DirectoryStoreFileSystem = {
      ...nodeFs,
      rename: async () => {
        throw errno("EINTR");
      },
      unlink: async () => undefined,
    };
    const { store, root } = storeWith({ "docs/note.md": "written before" }, crashing);
    await storeFailure(store.write("docs/note.md", "lost in the crash"));
    const left = entriesOnDisk(root);
    expect(left).toHaveLength(3);
    const temp = left.find((name) => name.startsWith("docs/.runvil-tmp-")) ?? "";
    expect(temp).toMatch(/^docs\/\.runvil-tmp-\d+-\d+-[0-9a-f]{8}$/);
    expect(readFileSync(join(root, temp), "utf8")).toBe("lost in the crash");

    // After the restart: the old file is intact and the leftover is invisible.
    const restarted = new DirectoryStore(root, { sync: false });
    expect(await restarted.read("docs/note.md")).toBe("written before");
    expect(await restarted.list()).toEqual(["docs/note.md"]);
    expect(await restarted.glob("docs/*")).toEqual(["docs/note.md"]);
    expect(await restarted.glob("**/.runvil-tmp*")).toEqual([]);
    expect((await storeFailure(restarted.read(temp))).message).toBe(
      `${temp}: invalid path: names starting with .runvil-tmp are reserved`,
    );
    await restarted.write("docs/note.md", "after the restart");
    expect(await restarted.read("docs/note.md")).toBe("after the restart");
  });

  it("leaves no temporary files behind after many changes, with fsync on", async () => {
    const base = tempDirectory();
    const store = new DirectoryStore(join(base, "store"));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.write(`f/${i % 5}.txt`, `version ${i}`)),
    );
    await store.append("f/0.txt", "+");
    await store.edit("f/1.txt", "version", "v");
    expect(entriesOnDisk(join(base, "store"))).toEqual([
      "f",
      "f/0.txt",
      "f/1.txt",
      "f/2.txt",
      "f/3.txt",
      "f/4.txt",
    ]);
    expect(await readAllFiles(store)).toEqual({
      "f/0.txt": "version 15+",
      "f/1.txt": "v 16",
      "f/2.txt": "version 17",
      "f/3.txt": "version 18",
      "f/4.txt": "version 19",
    });
  });

  it("keeps every record when two stores of one root append concurrently", async () => {
    const base = tempDirectory();
    const first = new DirectoryStore(join(base, "store"), { sync: false });
    const second = new DirectoryStore(join(base, "store", "."), { sync: false });
    const appends: Promise<void>[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 40; i++) {
      const line = `${i % 2 === 0 ? "first" : "second"} ${i}\n`;
      expected.push(line);
      appends.push((i % 2 === 0 ? first : second).append("rows.jsonl", line));
    }
    await Promise.all(appends);
    expect(await first.read("rows.jsonl")).toBe(expected.join(""));
  });

  it("removes the directories a failed change created", async () => {
    const fs: DirectoryStoreFileSystem = {
      ...nodeFs,
      rename: async () => {
        throw errno("EIO");
      },
    };
    const { store, root } = storeWith({ "a/keep.txt": "x" }, fs);
    await storeFailure(store.write("a/b/c/d.txt", "x"));
    expect(entriesOnDisk(root)).toEqual(["a", "a/keep.txt"]);
  });
});

describe("DirectoryStore on disk", () => {
  it("persists across stores: a later run sees the files", async () => {
    const root = join(tempDirectory(), "persist");
    await new DirectoryStore(root, { sync: false }).write("notes/day1.md", "first run");
    const later = new DirectoryStore(root, { sync: false });
    expect(await later.read("notes/day1.md")).toBe("first run");
  });

  it("reads nothing and creates nothing until a change needs the root", async () => {
    const root = join(tempDirectory(), "not-yet");
    const store = new DirectoryStore(root, { sync: false });
    expect(await store.list()).toEqual([]);
    expect(await store.glob("**")).toEqual([]);
    expect(await store.exists("a.txt")).toBe(false);
    expect((await storeFailure(store.read("a.txt"))).reason).toBe("not_found");
    expect((await storeFailure(store.delete("a.txt"))).reason).toBe("not_found");
    expect(existsSync(root)).toBe(false);
    await store.append("a.txt", "x");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("x");
  });

  it("removes emptied directories on delete, keeping the root", async () => {
    const { store, root } = storeWith({ "a/b/c.txt": "x", "a/keep.txt": "y" });
    await store.delete("a/b/c.txt");
    expect(entriesOnDisk(root)).toEqual(["a", "a/keep.txt"]);
    await store.delete("a/keep.txt");
    expect(entriesOnDisk(root)).toEqual([]);
    expect(existsSync(root)).toBe(true);
  });

  it("lists only files a path can name", async () => {
    const { store, root } = storeWith({ "ok.txt": "x", "dir/ok.md": "y" });
    writeFileSync(join(root, "back\\slash.txt"), "x");
    writeFileSync(join(root, "new\nline.txt"), "x");
    writeFileSync(join(root, ".runvil-tmp-99-1-deadbeef"), "x");
    writeFileSync(Buffer.from([...Buffer.from(`${root}/`), 0x66, 0xff]), "x");
    mkdirSync(join(root, "empty-dir"));
    mkdirSync(join(root, "bad\\dir"));
    writeFileSync(join(root, "bad\\dir", "hidden.txt"), "x");
    execFileSync("mkfifo", [join(root, "pipe")]);
    expect(await store.list()).toEqual(["dir/ok.md", "ok.txt"]);
    expect(await store.glob("**")).toEqual(["dir/ok.md", "ok.txt"]);
    expect(await store.exists("empty-dir")).toBe(false);
    expect(await store.exists("pipe")).toBe(false);
    expect(await storeFailure(store.read("pipe"))).toEqual({
      reason: "not_a_file",
      path: "pipe",
      message: "pipe: is not a regular file",
    });
  });

  it("counts the files already on disk toward the store limit", async () => {
    const { root } = storeWith({ "old.txt": "12345678901234567890" });
    const store = new DirectoryStore(root, { sync: false, limits: { maxStoreBytes: 25 } });
    expect(await storeFailure(store.write("new.txt", "123456"))).toEqual({
      reason: "too_large",
      path: "new.txt",
      message: "new.txt: the store would hold 26 bytes, over the 25-byte store limit",
    });
    await store.write("new.txt", "12345");
  });

  it("reports a failing directory read as io_error naming the operation, never the root", async () => {
    const fs: DirectoryStoreFileSystem = {
      ...nodeFs,
      readdir: (async () => {
        throw errno("EACCES");
      }) as unknown as typeof nodeFs.readdir,
    };
    const { store, root } = storeWith({ "a/b.txt": "x" }, fs);
    const failure = await storeFailure(store.list("a"));
    expect(failure).toEqual({ reason: "io_error", path: "a", message: "a: list failed (EACCES)" });
    expect(failure.message).not.toContain(root);
    expect(await storeFailure(store.glob("**"))).toEqual({
      reason: "io_error",
      path: "**",
      message: "**: glob failed (EACCES)",
    });
    expect(await storeFailure(store.list())).toEqual({
      reason: "io_error",
      path: "",
      message: "list failed (EACCES)",
    });
  });
});
