import type { RunStore, StoreText } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import type { StoreLimits } from "../store/limits";
import { readAllFiles } from "../store/read-all-files";
import { rejection, storeFailure } from "./store-failure";

/** What one contract case asks of the store: a fresh store holding `files`, with `limits`. */
export interface RunStoreContractSetup {
  /** Files the store holds when it starts (path -> contents; bytes may be non-UTF-8). */
  readonly files?: Readonly<Record<string, StoreText>>;
  /** Size limits to enforce instead of the store's defaults (only the limits cases set them). */
  readonly limits?: Partial<StoreLimits>;
}

/** Makes a fresh store for one contract case. */
export type RunStoreFactory = (setup: RunStoreContractSetup) => RunStore | Promise<RunStore>;

/** Which parts of the contract a store takes. */
export interface RunStoreContractOptions {
  /**
   * Whether the store enforces `setup.limits` (default true). A store whose limits are its own
   * passes false, and the cases that set limits are left out.
   */
  readonly limits?: boolean;
}

/** The groups of cases a store is checked against (the sdk's TestStore has neither glob nor limits). */
export interface ContractGroups {
  readonly glob: boolean;
  readonly limits: boolean;
}

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

/** `describe(name, body)` when `included`; nothing otherwise. */
function describeIf(included: boolean, name: string, body: () => void): void {
  if (included) describe(name, body);
}

/**
 * The RunStore contract (docs/design/store.md), written once and run against every backend:
 * results, every reason with its exact message and fields, ordering, UTF-8 checks and limits.
 * Call it at the top level of a vitest test file; `makeStore` makes a fresh store per case.
 */
export function describeRunStoreContract(
  backend: string,
  makeStore: RunStoreFactory,
  options: RunStoreContractOptions = {},
): void {
  describeContractGroups(backend, makeStore, { glob: true, limits: options.limits !== false });
}

/** The contract with only the `groups` it names (see describeRunStoreContract). */
export function describeContractGroups(
  backend: string,
  factory: RunStoreFactory,
  groups: ContractGroups,
): void {
  const makeStore = async (setup: RunStoreContractSetup = {}): Promise<RunStore> => factory(setup);
  describe(`${backend}: the RunStore contract`, () => {
    describe("read and write", () => {
      it("reads back what was written; write returns nothing", async () => {
        const store = await makeStore();
        expect(await store.write("note.md", "hello")).toBeUndefined();
        expect(await store.read("note.md")).toBe("hello");
      });

      it("replaces a file", async () => {
        const store = await makeStore({ files: { "note.md": "old text" } });
        await store.write("note.md", "new");
        expect(await store.read("note.md")).toBe("new");
      });

      it("reads a seeded file", async () => {
        const store = await makeStore({ files: { "dir/seeded.txt": "seed" } });
        expect(await store.read("dir/seeded.txt")).toBe("seed");
      });

      it("creates directories on demand", async () => {
        const store = await makeStore();
        await store.write("a/b/c/deep.md", "x");
        expect(await store.list()).toEqual(["a/b/c/deep.md"]);
        expect(await store.read("a/b/c/deep.md")).toBe("x");
      });

      it("keeps empty files, NUL, a BOM and non-ASCII text exactly", async () => {
        const store = await makeStore();
        await store.write("empty.txt", "");
        await store.write("odd.txt", "\uFEFFa\u0000b é 😀 \r\n");
        expect(await store.read("empty.txt")).toBe("");
        expect(await store.read("odd.txt")).toBe("\uFEFFa\u0000b é 😀 \r\n");
      });

      it("takes paths and contents as UTF-8 bytes", async () => {
        const store = await makeStore();
        const encoder = new TextEncoder();
        await store.write(encoder.encode("é.txt"), encoder.encode("çà"));
        expect(await store.read("é.txt")).toBe("çà");
        expect(await store.exists(encoder.encode("é.txt"))).toBe(true);
      });

      it("treats paths case-sensitively", async () => {
        const store = await makeStore();
        await store.write("Note.md", "upper");
        expect(await store.exists("note.md")).toBe(false);
        expect(await storeFailure(store.read("note.md"))).toEqual({
          reason: "not_found",
          path: "note.md",
          message: "note.md: not found",
        });
      });

      it("fails not_found for a missing file (store|not_found|missing.txt)", async () => {
        const store = await makeStore();
        expect(await storeFailure(store.read("missing.txt"))).toEqual({
          reason: "not_found",
          path: "missing.txt",
          message: "missing.txt: not found",
        });
      });

      it("fails not_found below a file", async () => {
        const store = await makeStore({ files: { "note.md": "x" } });
        expect(await storeFailure(store.read("note.md/inner"))).toEqual({
          reason: "not_found",
          path: "note.md/inner",
          message: "note.md/inner: not found",
        });
      });

      it("fails not_a_file reading a directory", async () => {
        const store = await makeStore({ files: { "a/b.md": "x" } });
        expect(await storeFailure(store.read("a"))).toEqual({
          reason: "not_a_file",
          path: "a",
          message: "a: is a directory, not a file",
        });
      });

      it("fails not_a_file writing over a directory or below a file", async () => {
        const store = await makeStore({ files: { "a/b/c.md": "x" } });
        expect(await storeFailure(store.write("a", "y"))).toEqual({
          reason: "not_a_file",
          path: "a",
          message: "a: is a directory, not a file",
        });
        expect(await storeFailure(store.write("a/b/c.md/d/e", "y"))).toEqual({
          reason: "not_a_file",
          path: "a/b/c.md/d/e",
          message: "a/b/c.md/d/e: a/b/c.md is a file, not a directory",
        });
        expect(await readAllFiles(store)).toEqual({ "a/b/c.md": "x" });
      });

      it("applies operations in issue order: a read issued after a write sees it", async () => {
        const store = await makeStore({ files: { "state.txt": "old" } });
        const write = store.write("state.txt", "new");
        const read = store.read("state.txt");
        const [, text] = await Promise.all([write, read]);
        expect(text).toBe("new");
      });
    });

    describe("append", () => {
      it("creates the file and adds no separator (JSON Lines records)", async () => {
        const store = await makeStore();
        await store.append("rows.jsonl", '{"n":1,"tag":"a"}\n');
        await store.append("rows.jsonl", '{"n":2,"tag":"b"}\n{"n":3,"tag":null}\n');
        await store.append("rows.jsonl", "");
        expect(await store.read("rows.jsonl")).toBe(
          '{"n":1,"tag":"a"}\n{"n":2,"tag":"b"}\n{"n":3,"tag":null}\n',
        );
      });

      it("appending nothing to an absent file creates an empty file", async () => {
        const store = await makeStore();
        expect(await store.append("notes/new.md", "")).toBeUndefined();
        expect(await store.read("notes/new.md")).toBe("");
      });

      it("keeps every record of concurrent appends, in issue order", async () => {
        const store = await makeStore();
        const lines = Array.from({ length: 60 }, (_, i) => `line ${i}\n`);
        await Promise.all(lines.map((line) => store.append("log/all.txt", line)));
        expect(await store.read("log/all.txt")).toBe(lines.join(""));
      });

      it("fails not_a_file on a directory and below a file", async () => {
        const store = await makeStore({ files: { "d/f.txt": "x" } });
        expect(await storeFailure(store.append("d", "y"))).toEqual({
          reason: "not_a_file",
          path: "d",
          message: "d: is a directory, not a file",
        });
        expect(await storeFailure(store.append("d/f.txt/g", "y"))).toEqual({
          reason: "not_a_file",
          path: "d/f.txt/g",
          message: "d/f.txt/g: d/f.txt is a file, not a directory",
        });
      });
    });

    describe("edit", () => {
      it("replaces the one occurrence of the anchor; edit returns nothing", async () => {
        const store = await makeStore({ files: { "plan.md": "step one\nstep two\n" } });
        expect(await store.edit("plan.md", "one", "1")).toBeUndefined();
        expect(await store.read("plan.md")).toBe("step 1\nstep two\n");
      });

      it("deletes the anchor when new is empty, and takes bytes", async () => {
        const store = await makeStore({ files: { "a.md": "keep DROP keep" } });
        await store.edit("a.md", new TextEncoder().encode(" DROP"), new Uint8Array(0));
        expect(await store.read("a.md")).toBe("keep keep");
      });

      it("fails anchor_not_found with count 0", async () => {
        const store = await makeStore({ files: { "a.md": "abc" } });
        expect(await storeFailure(store.edit("a.md", "zzz", "y"))).toEqual({
          reason: "anchor_not_found",
          path: "a.md",
          message: "a.md: the anchor text does not occur in the file",
          count: 0,
        });
      });

      it("fails anchor_not_unique with the count, overlapping occurrences included", async () => {
        const store = await makeStore({ files: { "a.md": "x-x-x", "b.md": "aaa" } });
        expect(await storeFailure(store.edit("a.md", "x", "y"))).toEqual({
          reason: "anchor_not_unique",
          path: "a.md",
          message: "a.md: the anchor text occurs 3 times in the file",
          count: 3,
        });
        expect(await storeFailure(store.edit("b.md", "aa", "b"))).toEqual({
          reason: "anchor_not_unique",
          path: "b.md",
          message: "b.md: the anchor text occurs 2 times in the file",
          count: 2,
        });
        expect(await store.read("a.md")).toBe("x-x-x");
      });

      it("fails not_found for a missing file and not_a_file for a directory", async () => {
        const store = await makeStore({ files: { "d/f.md": "x" } });
        expect(await storeFailure(store.edit("none.md", "a", "b"))).toEqual({
          reason: "not_found",
          path: "none.md",
          message: "none.md: not found",
        });
        expect(await storeFailure(store.edit("d", "a", "b"))).toEqual({
          reason: "not_a_file",
          path: "d",
          message: "d: is a directory, not a file",
        });
      });

      it("throws a RangeError for an empty anchor (a caller bug)", async () => {
        const store = await makeStore({ files: { "a.md": "abc" } });
        const error = await rejection(store.edit("a.md", "", "x"));
        expect(error).toBeInstanceOf(RangeError);
        expect((error as RangeError).message).toBe("old must not be empty");
        expect(await rejection(store.edit("a.md", new Uint8Array(0), "x"))).toBeInstanceOf(
          RangeError,
        );
      });
    });

    describe("delete and exists", () => {
      it("deletes a file; delete returns nothing", async () => {
        const store = await makeStore({ files: { "a.md": "x", "b.md": "y" } });
        expect(await store.delete("a.md")).toBeUndefined();
        expect(await store.exists("a.md")).toBe(false);
        expect(await store.list()).toEqual(["b.md"]);
      });

      it("fails not_found for a missing file and not_a_file for a directory", async () => {
        const store = await makeStore({ files: { "d/f.md": "x" } });
        expect(await storeFailure(store.delete("gone.md"))).toEqual({
          reason: "not_found",
          path: "gone.md",
          message: "gone.md: not found",
        });
        expect(await storeFailure(store.delete("d"))).toEqual({
          reason: "not_a_file",
          path: "d",
          message: "d: is a directory, not a file",
        });
      });

      it("a directory ends with its last file, so its name can become a file", async () => {
        const store = await makeStore({ files: { "d/e/f.md": "x" } });
        await store.delete("d/e/f.md");
        expect(await store.list()).toEqual([]);
        await store.write("d", "now a file");
        expect(await store.read("d")).toBe("now a file");
      });

      it("exists is true for a file, false for an absent path, a directory or below a file", async () => {
        const store = await makeStore({ files: { "d/f.md": "x" } });
        expect(await store.exists("d/f.md")).toBe(true);
        expect(await store.exists("d/g.md")).toBe(false);
        expect(await store.exists("nowhere/g.md")).toBe(false);
        expect(await store.exists("d")).toBe(false);
        expect(await store.exists("d/f.md/x")).toBe(false);
      });

      it("exists still fails invalid_path", async () => {
        const store = await makeStore();
        expect(await storeFailure(store.exists("../x"))).toEqual({
          reason: "invalid_path",
          path: "../x",
          message: "../x: invalid path: '.' and '..' segments are not allowed",
        });
      });
    });

    describe("list", () => {
      it("lists every file, sorted bytewise (code point order, not UTF-16 order)", async () => {
        const store = await makeStore({
          files: {
            b: "1",
            "a/z": "2",
            "a/b": "3",
            B: "4",
            é: "5",
            "\uE000": "6",
            "😀": "7",
            "a b": "8",
          },
        });
        expect(await store.list()).toEqual(["B", "a b", "a/b", "a/z", "b", "é", "\uE000", "😀"]);
      });

      it("lists the files under a directory at any depth, as full paths", async () => {
        const store = await makeStore({
          files: { "a/x.md": "", "a/sub/y.md": "", "ab.md": "", "b/a/z.md": "" },
        });
        expect(await store.list("a")).toEqual(["a/sub/y.md", "a/x.md"]);
        expect(await store.list("a/sub")).toEqual(["a/sub/y.md"]);
      });

      it("gives an empty list for an empty store or a missing directory", async () => {
        const store = await makeStore({ files: { "f.md": "" } });
        expect(await store.list("nowhere")).toEqual([]);
        expect(await store.list("f.md/below")).toEqual([]);
        expect(await (await makeStore()).list()).toEqual([]);
      });

      it("fails not_a_file for a file and invalid_path for a bad path", async () => {
        const store = await makeStore({ files: { "f.md": "" } });
        expect(await storeFailure(store.list("f.md"))).toEqual({
          reason: "not_a_file",
          path: "f.md",
          message: "f.md: is a file, not a directory",
        });
        expect(await storeFailure(store.list("/"))).toEqual({
          reason: "invalid_path",
          path: "/",
          message: "/: invalid path: absolute paths are not allowed",
        });
        expect(await storeFailure(store.list(""))).toEqual({
          reason: "invalid_path",
          path: "",
          message: "invalid path: the path is empty",
        });
      });
    });

    describeIf(groups.glob, "glob", () => {
      const files = {
        "a.md": "",
        "b.txt": "",
        "notes/one.md": "",
        "notes/two.md": "",
        "notes/deep/three.md": "",
        "notes/deep/x.txt": "",
        "n?tes.md": "",
        "star*.md": "",
        "café.md": "",
        "😀.md": "",
        ".hidden.md": "",
      };

      const cases: [string, string[]][] = [
        ["*.md", [".hidden.md", "a.md", "café.md", "n?tes.md", "star*.md", "😀.md"]],
        [
          "**/*.md",
          [
            ".hidden.md",
            "a.md",
            "café.md",
            "n?tes.md",
            "notes/deep/three.md",
            "notes/one.md",
            "notes/two.md",
            "star*.md",
            "😀.md",
          ],
        ],
        ["notes/*", ["notes/one.md", "notes/two.md"]],
        ["notes/**", ["notes/deep/three.md", "notes/deep/x.txt", "notes/one.md", "notes/two.md"]],
        ["notes/**/*.txt", ["notes/deep/x.txt"]],
        ["**/deep/**", ["notes/deep/three.md", "notes/deep/x.txt"]],
        ["notes/??o.md", ["notes/two.md"]],
        ["?.md", ["a.md", "😀.md"]],
        ["[ab].*", ["a.md", "b.txt"]],
        ["[!ab.]*.md", ["café.md", "n?tes.md", "star*.md", "😀.md"]],
        ["[^a-m.]*", ["n?tes.md", "star*.md", "😀.md"]],
        ["n\\?tes.md", ["n?tes.md"]],
        ["star\\*.md", ["star*.md"]],
        ["caf[é].md", ["café.md"]],
        ["a.md", ["a.md"]],
        ["notes/one.md", ["notes/one.md"]],
        ["missing.md", []],
        ["notes", []],
        ["A.MD", []],
        ["a.md/**", []],
        ["**", Object.keys(files).sort()],
      ];

      for (const [pattern, expected] of cases) {
        it(`${pattern} matches ${expected.length} files`, async () => {
          const store = await makeStore({ files });
          expect(await store.glob(pattern)).toEqual(expected);
        });
      }

      it("fails invalid_pattern with the pattern as path", async () => {
        const store = await makeStore({ files });
        expect(await storeFailure(store.glob("notes/[ab"))).toEqual({
          reason: "invalid_pattern",
          path: "notes/[ab",
          message: "notes/[ab: invalid pattern: unclosed character class",
        });
        expect(await storeFailure(store.glob("/**"))).toEqual({
          reason: "invalid_pattern",
          path: "/**",
          message: "/**: invalid pattern: absolute patterns are not allowed",
        });
      });
    });

    describe("invalid paths", () => {
      const cases: [StoreText, string, string][] = [
        ["", "", "invalid path: the path is empty"],
        [new Uint8Array(0), "", "invalid path: the path is empty"],
        ["/etc/passwd", "/etc/passwd", "/etc/passwd: invalid path: absolute paths are not allowed"],
        [
          "../escape.txt",
          "../escape.txt",
          "../escape.txt: invalid path: '.' and '..' segments are not allowed",
        ],
        [
          "a/../../b",
          "a/../../b",
          "a/../../b: invalid path: '.' and '..' segments are not allowed",
        ],
        ["./a", "./a", "./a: invalid path: '.' and '..' segments are not allowed"],
        ["a//b", "a//b", "a//b: invalid path: empty segment"],
        ["a/", "a/", "a/: invalid path: empty segment"],
        ["a\u0000b", "a\u0000b", "a\\u0000b: invalid path: control characters are not allowed"],
        [
          "line\nbreak",
          "line\nbreak",
          "line\\u000abreak: invalid path: control characters are not allowed",
        ],
        ["a\\b", "a\\b", "a\\b: invalid path: backslashes are not allowed"],
        ["..\\..\\x", "..\\..\\x", "..\\..\\x: invalid path: backslashes are not allowed"],
        ["lone\uD800", "lone\uD800", "lone\\ud800: invalid path: not valid UTF-8"],
        [bytes(0x61, 0xff), "a\uFFFD", "a\uFFFD: invalid path: not valid UTF-8"],
        [
          ".runvil-tmp-1",
          ".runvil-tmp-1",
          ".runvil-tmp-1: invalid path: names starting with .runvil-tmp are reserved",
        ],
        [
          "x".repeat(256),
          "x".repeat(256),
          `${"x".repeat(200)}…: invalid path: a segment is longer than 255 bytes`,
        ],
        [
          `${"a/".repeat(512)}b`,
          `${"a/".repeat(512)}b`,
          `${"a/".repeat(100)}…: invalid path: longer than 1024 bytes`,
        ],
      ];

      for (const [input, path, message] of cases) {
        it(`refuses ${JSON.stringify(path).slice(0, 40)} in every operation`, async () => {
          const store = await makeStore({ files: { "ok.md": "x" } });
          const expected = { reason: "invalid_path", path, message };
          expect(await storeFailure(store.read(input))).toEqual(expected);
          expect(await storeFailure(store.write(input, "x"))).toEqual(expected);
          expect(await storeFailure(store.append(input, "x"))).toEqual(expected);
          expect(await storeFailure(store.edit(input, "x", "y"))).toEqual(expected);
          expect(await storeFailure(store.delete(input))).toEqual(expected);
          expect(await storeFailure(store.exists(input))).toEqual(expected);
          expect(await readAllFiles(store)).toEqual({ "ok.md": "x" });
        });
      }

      it("checks the path before the contents", async () => {
        const store = await makeStore();
        expect((await storeFailure(store.write("/x", bytes(0xff)))).reason).toBe("invalid_path");
      });
    });

    describe("UTF-8", () => {
      it("refuses written contents that are not UTF-8, with valid_up_to", async () => {
        const store = await makeStore();
        expect(await storeFailure(store.write("a.txt", bytes(0x61, 0x62, 0xc3, 0x28)))).toEqual({
          reason: "invalid_utf8",
          path: "a.txt",
          message: "a.txt: contents is not valid UTF-8 (valid up to byte 2)",
          validUpTo: 2,
        });
        expect(await store.exists("a.txt")).toBe(false);
      });

      it("counts valid_up_to in UTF-8 bytes for a string with a lone surrogate", async () => {
        const store = await makeStore();
        expect(await storeFailure(store.write("a.txt", "é😀x\uDC00"))).toEqual({
          reason: "invalid_utf8",
          path: "a.txt",
          message: "a.txt: contents is not valid UTF-8 (valid up to byte 7)",
          validUpTo: 7,
        });
      });

      it("names the argument: text for append, old and new for edit", async () => {
        const store = await makeStore({ files: { "a.txt": "abc" } });
        expect(await storeFailure(store.append("a.txt", bytes(0xe2, 0x82)))).toEqual({
          reason: "invalid_utf8",
          path: "a.txt",
          message: "a.txt: text is not valid UTF-8 (valid up to byte 0)",
          validUpTo: 0,
        });
        expect(await storeFailure(store.edit("a.txt", bytes(0x61, 0x80), "x"))).toEqual({
          reason: "invalid_utf8",
          path: "a.txt",
          message: "a.txt: old is not valid UTF-8 (valid up to byte 1)",
          validUpTo: 1,
        });
        expect(await storeFailure(store.edit("a.txt", "b", bytes(0xed, 0xa0, 0x80)))).toEqual({
          reason: "invalid_utf8",
          path: "a.txt",
          message: "a.txt: new is not valid UTF-8 (valid up to byte 0)",
          validUpTo: 0,
        });
        expect(await store.read("a.txt")).toBe("abc");
      });

      it("refuses to read, append to or edit a stored file that is not UTF-8", async () => {
        const raw = bytes(0x68, 0x69, 0x0a, 0xf0, 0x9f, 0x98);
        const store = await makeStore({ files: { "raw.bin": raw } });
        const expected = {
          reason: "invalid_utf8",
          path: "raw.bin",
          message: "raw.bin: the file is not valid UTF-8 (valid up to byte 3)",
          validUpTo: 3,
        };
        expect(await storeFailure(store.read("raw.bin"))).toEqual(expected);
        expect(await storeFailure(store.append("raw.bin", "x"))).toEqual(expected);
        expect(await storeFailure(store.edit("raw.bin", "hi", "yo"))).toEqual(expected);
        expect(await store.exists("raw.bin")).toBe(true);
        expect(await store.list()).toEqual(["raw.bin"]);
        await store.write("raw.bin", "fixed");
        expect(await store.read("raw.bin")).toBe("fixed");
      });
    });

    describeIf(groups.limits, "limits", () => {
      const limits = { maxFileBytes: 10, maxStoreBytes: 25 };

      it("refuses a file over the file limit and keeps the old one", async () => {
        const store = await makeStore({ limits, files: { "a.txt": "old" } });
        await store.write("b.txt", "0123456789");
        expect(await storeFailure(store.write("a.txt", "01234567890"))).toEqual({
          reason: "too_large",
          path: "a.txt",
          message: "a.txt: the file would be 11 bytes, over the 10-byte file limit",
        });
        expect(await storeFailure(store.write("c.txt", "ééééééé"))).toEqual({
          reason: "too_large",
          path: "c.txt",
          message: "c.txt: the file would be 14 bytes, over the 10-byte file limit",
        });
        expect(await storeFailure(store.append("a.txt", "12345678"))).toEqual({
          reason: "too_large",
          path: "a.txt",
          message: "a.txt: the file would be 11 bytes, over the 10-byte file limit",
        });
        expect(await storeFailure(store.edit("a.txt", "o", "long text"))).toEqual({
          reason: "too_large",
          path: "a.txt",
          message: "a.txt: the file would be 11 bytes, over the 10-byte file limit",
        });
        expect(await readAllFiles(store)).toEqual({ "a.txt": "old", "b.txt": "0123456789" });
      });

      it("refuses a change that would pass the store limit, counting replacements", async () => {
        const store = await makeStore({ limits, files: { "seed.txt": "12345" } });
        await store.write("a.txt", "0123456789");
        await store.write("b/c.txt", "0123456789");
        await store.write("a.txt", "0123456789");
        expect(await storeFailure(store.write("d.txt", "1"))).toEqual({
          reason: "too_large",
          path: "d.txt",
          message: "d.txt: the store would hold 26 bytes, over the 25-byte store limit",
        });
        await store.write("a.txt", "012345678");
        await store.write("d.txt", "1");
        expect(await readAllFiles(store)).toEqual({
          "a.txt": "012345678",
          "b/c.txt": "0123456789",
          "d.txt": "1",
          "seed.txt": "12345",
        });
      });

      it("counts seeded files and frees the bytes of a deleted file", async () => {
        const store = await makeStore({ limits, files: { "seed.txt": "1234567890" } });
        await store.write("a.txt", "1234567890");
        expect(await storeFailure(store.append("b.txt", "123456"))).toEqual({
          reason: "too_large",
          path: "b.txt",
          message: "b.txt: the store would hold 26 bytes, over the 25-byte store limit",
        });
        expect(await store.exists("b.txt")).toBe(false);
        expect(await store.list()).toEqual(["a.txt", "seed.txt"]);
        await store.delete("seed.txt");
        await store.write("b/c.txt", "123456");
        expect(await store.read("b/c.txt")).toBe("123456");
      });

      it("refuses to read a stored file over the file limit", async () => {
        const store = await makeStore({ limits, files: { "big.txt": "0123456789AB" } });
        expect(await storeFailure(store.read("big.txt"))).toEqual({
          reason: "too_large",
          path: "big.txt",
          message: "big.txt: the file is 12 bytes, over the 10-byte file limit",
        });
        expect(await storeFailure(store.edit("big.txt", "0", "1"))).toEqual({
          reason: "too_large",
          path: "big.txt",
          message: "big.txt: the file is 12 bytes, over the 10-byte file limit",
        });
      });
    });
  });
}
