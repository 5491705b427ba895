import { describe, expect, it } from "vitest";
import { countOccurrences, replaceAnchor } from "../store/anchor";
import { DirectoryStore } from "../store/directory-store";
import { compileGlob } from "../store/glob";
import { MemoryStore } from "../store/memory-store";
import { seedDirectory, tempDirectory } from "../test-support/temp-directory";
import { storeFailure } from "../testing/store-failure";

/**
 * Attack class: host-side CPU bombs in the store (docs/security.md). A glob pattern is matched
 * without backtracking and an edit anchor is found in one linear pass, so a hostile pattern or
 * anchor costs time linear in the names and the file, not exponential or quadratic.
 */

const NAME = "a".repeat(200);
/** The pattern, `string.rep('*a', 12) .. '*b'`: a backtracking RegExp never finishes. */
const PATTERN = `${"*a".repeat(12)}*b`;

describe("security: store glob patterns", () => {
  it("matches *a*a*a…*b against a 200-character name without backtracking", () => {
    expect(compileGlob(PATTERN).matches([NAME])).toBe(false);
    expect(compileGlob(PATTERN).matches([`${NAME}b`])).toBe(true);
    expect(compileGlob(`${"*a".repeat(60)}*b`).matches(["a".repeat(250)])).toBe(false);
    expect(compileGlob(`${"*?".repeat(100)}*b`).matches(["a".repeat(250)])).toBe(false);
    expect(compileGlob(`*${"a".repeat(100)}b*`).matches(["a".repeat(250)])).toBe(false);
  });

  it("answers the issue's glob in the memory and directory stores", async () => {
    const memory = new MemoryStore({ files: { [NAME]: "x", [`dir/${NAME}`]: "y" } });
    expect(await memory.glob(PATTERN)).toEqual([]);
    expect(await memory.glob(`**/${PATTERN}`)).toEqual([]);
    const root = tempDirectory();
    seedDirectory(root, { [NAME]: "x", [`${NAME}b`]: "y" });
    const directory = new DirectoryStore(root, { sync: false });
    expect(await directory.glob(PATTERN)).toEqual([`${NAME}b`]);
  });
});

describe("security: store edit anchors", () => {
  const MiB = 1024 * 1024;

  it("counts a 16 KiB anchor in a 1 MiB file in one pass", async () => {
    // The reproduction of issue 11: repeated indexOf took 16 s.
    const text = "a".repeat(MiB);
    const anchor = "a".repeat(16 * 1024);
    expect(countOccurrences(text, anchor)).toBe(MiB - 16 * 1024 + 1);
    const store = new MemoryStore({ files: { "big.txt": text } });
    expect(await storeFailure(store.edit("big.txt", anchor, "b"))).toEqual({
      reason: "anchor_not_unique",
      path: "big.txt",
      message: `big.txt: the anchor text occurs ${MiB - 16 * 1024 + 1} times in the file`,
      count: MiB - 16 * 1024 + 1,
    });
  });

  it("finds an anchor that V8's indexOf searches in text × anchor steps", () => {
    // `indexOf` takes about 12 s on this pair: a…aba…a in a text of a's.
    const text = "a".repeat(MiB);
    const anchor = `${"a".repeat(8 * 1024)}b${"a".repeat(8 * 1024)}`;
    expect(replaceAnchor(text, anchor, "x")).toEqual({ ok: false, count: 0 });
    const once = `${text}${anchor}`;
    expect(replaceAnchor(once, anchor, "x")).toEqual({ ok: true, text: `${text}x` });
  });

  it("edits a file whose anchor occurs once, in the directory store too", async () => {
    const root = tempDirectory();
    seedDirectory(root, { "note.md": `${"a".repeat(MiB)}<!-- end -->` });
    const store = new DirectoryStore(root, { sync: false });
    await store.edit("note.md", "<!-- end -->", "done");
    expect((await store.read("note.md")).endsWith("adone")).toBe(true);
  });
});
