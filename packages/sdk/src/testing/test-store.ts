import type { RunStore, StoreText } from "../store";
import {
  anchorNotFound,
  anchorNotUnique,
  invalidUtf8Argument,
  invalidUtf8File,
  isDirectory,
  isFileNotDirectory,
  notFound,
  parentIsFile,
} from "./store-failures";
import { parseStorePath, type StorePath } from "./store-path";
import { compareBytewise, decodeStoreText } from "./store-text";

/** The message of the Error TestStore.glob throws. */
export const TEST_STORE_NO_GLOB =
  "TestStore does not implement glob; pass a MemoryStore from @runvil/harness as the store";

/** The text of a text argument; an `invalid_utf8` StoreError naming the argument otherwise. */
function argumentText(path: string, argument: string, value: StoreText): string {
  const decoded = decodeStoreText(value);
  if (!decoded.ok) throw invalidUtf8Argument(path, argument, decoded.validUpTo);
  return decoded.text;
}

/** The directories containing `target`, outermost first (`a`, `a/b` for `a/b/c`). */
function ancestors(target: StorePath): string[] {
  return target.segments.slice(0, -1).map((_, i) => target.segments.slice(0, i + 1).join("/"));
}

/**
 * A small in-memory RunStore for testing a Pack's tools. It keeps the RunStore contract of
 * docs/design/store.md for everything it implements, with the Harness stores' reasons and
 * messages: the path grammar (`invalid_path`), UTF-8 checks (`invalid_utf8` with `validUpTo`),
 * `not_found`, `not_a_file` (directories exist while they hold files), `edit`'s anchors
 * (`anchor_not_found`, `anchor_not_unique` with `count`, overlapping occurrences counted; a
 * RangeError for an empty anchor), and bytewise-sorted `list`. It leaves out two things, and
 * says so rather than pretending: it has no size limits, and `glob` throws an Error
 * ({@link TEST_STORE_NO_GLOB}); test those with `@runvil/harness`'s MemoryStore.
 */
export class TestStore implements RunStore {
  /** Path -> contents: text, or raw bytes for a seeded file that is not UTF-8. */
  readonly #files = new Map<string, string | Uint8Array>();

  /**
   * A store holding `files` (path -> contents). Byte contents that are not UTF-8 are kept as
   * they are, and reading them fails `invalid_utf8`, like such a file on disk. An invalid path,
   * a path below a seeded file, or a string with a lone surrogate throws its StoreError.
   */
  constructor(files: Readonly<Record<string, StoreText>> = {}) {
    for (const [path, contents] of Object.entries(files)) {
      const target = parseStorePath(path);
      this.#checkCreate(target);
      const decoded = decodeStoreText(contents);
      if (decoded.ok) this.#files.set(target.path, decoded.text);
      else if (typeof contents === "string") {
        throw invalidUtf8Argument(target.path, "contents", decoded.validUpTo);
      } else this.#files.set(target.path, contents.slice());
    }
  }

  /** Every file and its text, sorted by path: what a test checks after a tool ran. */
  files(): Record<string, string> {
    const result: Record<string, string> = {};
    for (const path of [...this.#files.keys()].sort(compareBytewise)) {
      const value = this.#files.get(path);
      result[path] = typeof value === "string" ? value : new TextDecoder().decode(value);
    }
    return result;
  }

  async read(path: StoreText): Promise<string> {
    const target = parseStorePath(path);
    return this.#existingText(target);
  }

  async write(path: StoreText, contents: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const text = argumentText(target.path, "contents", contents);
    this.#checkCreate(target);
    this.#files.set(target.path, text);
  }

  async append(path: StoreText, text: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const added = argumentText(target.path, "text", text);
    this.#checkCreate(target);
    const before = this.#files.has(target.path) ? this.#existingText(target) : "";
    this.#files.set(target.path, before + added);
  }

  async edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    const target = parseStorePath(path);
    if (oldText.length === 0) throw new RangeError("old must not be empty");
    const anchor = argumentText(target.path, "old", oldText);
    const replacement = argumentText(target.path, "new", newText);
    const text = this.#existingText(target);
    const index = text.indexOf(anchor);
    if (index === -1) throw anchorNotFound(target.path);
    if (text.indexOf(anchor, index + 1) !== -1) {
      let count = 0;
      for (let at = index; at !== -1; at = text.indexOf(anchor, at + 1)) count += 1;
      throw anchorNotUnique(target.path, count);
    }
    this.#files.set(
      target.path,
      text.slice(0, index) + replacement + text.slice(index + anchor.length),
    );
  }

  async delete(path: StoreText): Promise<void> {
    const target = parseStorePath(path);
    this.#existing(target);
    this.#files.delete(target.path);
  }

  async exists(path: StoreText): Promise<boolean> {
    return this.#files.has(parseStorePath(path).path);
  }

  async list(prefix?: StoreText): Promise<string[]> {
    const paths = [...this.#files.keys()].sort(compareBytewise);
    if (prefix === undefined) return paths;
    const directory = parseStorePath(prefix);
    if (this.#files.has(directory.path)) throw isFileNotDirectory(directory.path);
    return paths.filter((path) => path.startsWith(`${directory.path}/`));
  }

  async glob(_pattern: StoreText): Promise<string[]> {
    throw new Error(TEST_STORE_NO_GLOB);
  }

  /** Whether `path` is a directory: some file lies below it. */
  #isDirectory(path: string): boolean {
    const start = `${path}/`;
    for (const file of this.#files.keys()) if (file.startsWith(start)) return true;
    return false;
  }

  /** The contents at `target`; `not_found` when absent, `not_a_file` for a directory. */
  #existing(target: StorePath): string | Uint8Array {
    const value = this.#files.get(target.path);
    if (value !== undefined) return value;
    if (this.#isDirectory(target.path)) throw isDirectory(target.path);
    throw notFound(target.path);
  }

  /** The text of an existing file; `invalid_utf8` for seeded bytes that are not UTF-8. */
  #existingText(target: StorePath): string {
    const value = this.#existing(target);
    if (typeof value === "string") return value;
    const decoded = decodeStoreText(value);
    if (!decoded.ok) throw invalidUtf8File(target.path, decoded.validUpTo);
    return decoded.text;
  }

  /** `not_a_file` unless a file could be created at `target`. */
  #checkCreate(target: StorePath): void {
    for (const directory of ancestors(target)) {
      if (this.#files.has(directory)) throw parentIsFile(target.path, directory);
    }
    if (this.#isDirectory(target.path)) throw isDirectory(target.path);
  }
}
