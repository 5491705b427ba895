import { describe, expect, it } from "vitest";
import { storeFailure } from "../testing/store-failure";
import { MemoryStore } from "./memory-store";
import { readAllFiles } from "./read-all-files";

describe("MemoryStore", () => {
  it("is seeded from a record and counts its files and bytes", async () => {
    const store = new MemoryStore({ files: { "note.md": "hello", "a/é.txt": "ç" } });
    expect(store.fileCount).toBe(2);
    expect(store.usedBytes).toBe(7);
    expect(await readAllFiles(store)).toEqual({ "a/é.txt": "ç", "note.md": "hello" });
    await store.append("note.md", "!");
    await store.delete("a/é.txt");
    expect(store.usedBytes).toBe(6);
    expect(store.fileCount).toBe(1);
  });

  it("applies a change at the call, before the Promise settles", async () => {
    const store = new MemoryStore();
    const pending = store.write("a.txt", "now");
    expect(store.fileCount).toBe(1);
    await pending;
  });

  it("keeps a copy of seeded bytes that are not UTF-8", async () => {
    const raw = Uint8Array.from([0x61, 0xff]);
    const store = new MemoryStore({ files: { "raw.bin": raw } });
    raw[0] = 0x62;
    expect(await storeFailure(store.read("raw.bin"))).toEqual({
      reason: "invalid_utf8",
      path: "raw.bin",
      message: "raw.bin: the file is not valid UTF-8 (valid up to byte 1)",
      validUpTo: 1,
    });
  });

  it("refuses seeds with an invalid path, a lone surrogate or a file/directory clash", async () => {
    expect(
      await storeFailure(Promise.resolve().then(() => new MemoryStore({ files: { "../x": "" } }))),
    ).toEqual({
      reason: "invalid_path",
      path: "../x",
      message: "../x: invalid path: '.' and '..' segments are not allowed",
    });
    expect(
      await storeFailure(
        Promise.resolve().then(() => new MemoryStore({ files: { x: "a\uD800" } })),
      ),
    ).toEqual({
      reason: "invalid_utf8",
      path: "x",
      message: "x: contents is not valid UTF-8 (valid up to byte 1)",
      validUpTo: 1,
    });
    expect(
      await storeFailure(
        Promise.resolve().then(() => new MemoryStore({ files: { a: "", "a/b": "" } })),
      ),
    ).toEqual({ reason: "not_a_file", path: "a/b", message: "a/b: a is a file, not a directory" });
  });

  it("never refuses seeds over the limits, but later changes see them", async () => {
    const store = new MemoryStore({ files: { big: "0123456789" }, limits: { maxStoreBytes: 5 } });
    expect(store.usedBytes).toBe(10);
    expect((await storeFailure(store.write("x", "1"))).message).toBe(
      "x: the store would hold 11 bytes, over the 5-byte store limit",
    );
    await store.write("big", "1");
    expect(store.usedBytes).toBe(1);
  });
});
