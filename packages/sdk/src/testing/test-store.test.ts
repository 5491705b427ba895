import { describe, expect, it } from "vitest";
import { StoreError, type StoreFailure } from "../store";
import { TEST_STORE_NO_GLOB, TestStore } from "./test-store";

/** The StoreError `promise` rejects with, as a plain object. */
async function failure(promise: Promise<unknown>): Promise<StoreFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return { ...error, message: error.message };
}

describe("TestStore", () => {
  it("reads, writes, appends, edits, deletes and lists like a run store", async () => {
    const store = new TestStore({ "notes.md": "- a\n" });
    await store.append("notes.md", "- b\n");
    await store.write("dir/z.md", "z");
    await store.write("dir/é.md", "e");
    await store.edit("notes.md", "- b", "- B");
    expect(await store.read("notes.md")).toBe("- a\n- B\n");
    expect(await store.exists("dir")).toBe(false);
    expect(await store.list()).toEqual(["dir/z.md", "dir/é.md", "notes.md"]);
    expect(await store.list("dir")).toEqual(["dir/z.md", "dir/é.md"]);
    expect(await store.list("missing")).toEqual([]);
    await store.delete("dir/z.md");
    expect(store.files()).toEqual({ "dir/é.md": "e", "notes.md": "- a\n- B\n" });
  });

  it("takes paths and contents as UTF-8 bytes", async () => {
    const store = new TestStore();
    const encoder = new TextEncoder();
    await store.write(encoder.encode("é.txt"), encoder.encode("çà"));
    expect(await store.read("é.txt")).toBe("çà");
  });

  it("sorts bytewise: U+E000 before a code point above U+FFFF", async () => {
    const store = new TestStore({ "\u{1F600}.md": "", "\uE000.md": "", "a.md": "" });
    expect(await store.list()).toEqual(["a.md", "\uE000.md", "\u{1F600}.md"]);
  });

  it("fails not_found and not_a_file with the stores' messages", async () => {
    const store = new TestStore({ "a/b.md": "x" });
    expect(await failure(store.read("missing.txt"))).toEqual({
      name: "StoreError",
      reason: "not_found",
      path: "missing.txt",
      message: "missing.txt: not found",
    });
    expect((await failure(store.read("a"))).message).toBe("a: is a directory, not a file");
    expect((await failure(store.delete("a"))).reason).toBe("not_a_file");
    expect((await failure(store.write("a", "y"))).message).toBe("a: is a directory, not a file");
    expect((await failure(store.write("a/b.md/c", "y"))).message).toBe(
      "a/b.md/c: a/b.md is a file, not a directory",
    );
    expect((await failure(store.list("a/b.md"))).message).toBe(
      "a/b.md: is a file, not a directory",
    );
    expect((await failure(store.read("a/b.md/c"))).reason).toBe("not_found");
    expect((await failure(store.delete("gone.md"))).message).toBe("gone.md: not found");
  });

  it("checks edit's anchor: missing, repeated (overlaps counted), empty", async () => {
    const store = new TestStore({ "a.txt": "aaa" });
    expect(await failure(store.edit("a.txt", "b", "c"))).toMatchObject({
      reason: "anchor_not_found",
      count: 0,
      message: "a.txt: the anchor text does not occur in the file",
    });
    expect(await failure(store.edit("a.txt", "aa", "c"))).toMatchObject({
      reason: "anchor_not_unique",
      count: 2,
      message: "a.txt: the anchor text occurs 2 times in the file",
    });
    await expect(store.edit("a.txt", "", "c")).rejects.toThrow(
      new RangeError("old must not be empty"),
    );
    expect(await store.read("a.txt")).toBe("aaa");
  });

  it("refuses paths the path grammar refuses", async () => {
    const store = new TestStore();
    const cases: [string, string][] = [
      ["", "invalid path: the path is empty"],
      ["/etc/passwd", "/etc/passwd: invalid path: absolute paths are not allowed"],
      ["a//b", "a//b: invalid path: empty segment"],
      ["a/../b", "a/../b: invalid path: '.' and '..' segments are not allowed"],
      ["a\u0000b", "a\\u0000b: invalid path: control characters are not allowed"],
      ["a\\b", "a\\b: invalid path: backslashes are not allowed"],
      [
        `${"x".repeat(256)}`,
        `${"x".repeat(200)}…: invalid path: a segment is longer than 255 bytes`,
      ],
      [`${"a/".repeat(512)}a`, `${"a/".repeat(100)}…: invalid path: longer than 1024 bytes`],
      [
        ".runvil-tmp-1",
        ".runvil-tmp-1: invalid path: names starting with .runvil-tmp are reserved",
      ],
    ];
    for (const [path, message] of cases) {
      expect(await failure(store.write(path, "x"))).toMatchObject({
        reason: "invalid_path",
        path,
        message,
      });
    }
    expect(await failure(store.exists(Uint8Array.of(0x61, 0xff)))).toMatchObject({
      reason: "invalid_path",
      path: "a\uFFFD",
      message: "a\uFFFD: invalid path: not valid UTF-8",
    });
  });

  it("refuses text that is not UTF-8, saying where it stops being valid", async () => {
    const store = new TestStore({ "raw.bin": Uint8Array.of(0x61, 0x62, 0xc3) });
    expect(await failure(store.write("a.txt", Uint8Array.of(0x61, 0xe2, 0x82)))).toMatchObject({
      reason: "invalid_utf8",
      validUpTo: 1,
      message: "a.txt: contents is not valid UTF-8 (valid up to byte 1)",
    });
    expect(await failure(store.append("a.txt", "é\uD800"))).toMatchObject({
      reason: "invalid_utf8",
      validUpTo: 2,
      message: "a.txt: text is not valid UTF-8 (valid up to byte 2)",
    });
    expect(await failure(store.read("raw.bin"))).toMatchObject({
      reason: "invalid_utf8",
      validUpTo: 2,
      message: "raw.bin: the file is not valid UTF-8 (valid up to byte 2)",
    });
    expect(await store.exists("a.txt")).toBe(false);
  });

  it("refuses an invalid seed", () => {
    expect(() => new TestStore({ "a.md": "x", "a.md/b": "y" })).toThrow(
      "a.md/b: a.md is a file, not a directory",
    );
    expect(() => new TestStore({ "../a": "x" })).toThrow("invalid path");
  });

  it("has no glob, and says so", async () => {
    await expect(new TestStore().glob("*.md")).rejects.toThrow(TEST_STORE_NO_GLOB);
  });
});
