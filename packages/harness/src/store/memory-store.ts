import { Buffer } from "node:buffer";
import type { RunStore, StoreText } from "@runvil/sdk";
import { replaceAnchor } from "./anchor";
import { editArguments, textArgument } from "./arguments";
import { sortBytewise } from "./bytewise";
import {
  anchorNotFound,
  anchorNotUnique,
  fileIsTooLarge,
  fileWouldBeTooLarge,
  invalidUtf8Argument,
  invalidUtf8File,
  isDirectory,
  isFileNotDirectory,
  notFound,
  parentIsFile,
  storeWouldBeTooLarge,
} from "./failures";
import { compileGlob } from "./glob";
import { resolveStoreLimits, type StoreLimits } from "./limits";
import { parseStorePath, type StorePath } from "./store-path";
import { type CheckedText, checkUtf8, textAsString, utf8ValidUpTo } from "./utf8";

/** Options of a MemoryStore. */
export interface MemoryStoreOptions {
  /**
   * Files the store holds when it starts, path to contents (a scenario's
   * `store:`). String contents must be well formed; byte contents that are not
   * UTF-8 are kept as they are, like such a file on disk, and reading them
   * fails `invalid_utf8`. Seeds count toward the store limit but are never
   * refused by it. An invalid path throws its StoreError.
   */
  readonly files?: Readonly<Record<string, StoreText>>;
  /** Size limits; DEFAULT_STORE_LIMITS for any not given. */
  readonly limits?: Partial<StoreLimits>;
}

/** A stored file: its text, or raw bytes for a seeded file that is not UTF-8. */
interface MemoryFile {
  readonly value: string | Uint8Array;
  readonly bytes: number;
}

/** A listed file with its segments, kept sorted for list and glob. */
interface ListedPath {
  readonly path: string;
  readonly segments: readonly string[];
}

/**
 * A RunStore held in memory for one run. Every operation takes effect
 * synchronously when it is called (the returned Promise only reports the
 * outcome), so operations apply in the order they are issued. Directories
 * exist exactly while they hold files, as in a DirectoryStore.
 */
export class MemoryStore implements RunStore {
  /** The size limits in force. */
  readonly limits: StoreLimits;
  readonly #files = new Map<string, MemoryFile>();
  /** Directory path -> number of files below it. */
  readonly #directories = new Map<string, number>();
  #usedBytes = 0;
  #sorted: ListedPath[] | undefined;

  /** A store holding `options.files`, with `options.limits`. */
  constructor(options: MemoryStoreOptions = {}) {
    this.limits = resolveStoreLimits(options.limits);
    for (const [path, contents] of Object.entries(options.files ?? {})) {
      const target = parseStorePath(path);
      this.#checkCreate(target);
      const check = checkUtf8(contents);
      if (check.ok) {
        const text = textAsString(check.text);
        this.#put(target, { value: text, bytes: check.text.byteLength });
      } else if (typeof contents === "string") {
        throw invalidUtf8Argument(target.path, "contents", check.validUpTo);
      } else {
        this.#put(target, { value: contents.slice(), bytes: contents.length });
      }
    }
  }

  /** Bytes of file contents the store holds. */
  get usedBytes(): number {
    return this.#usedBytes;
  }

  /** How many files the store holds. */
  get fileCount(): number {
    return this.#files.size;
  }

  async read(path: StoreText): Promise<string> {
    const target = parseStorePath(path);
    return this.#existingText(target, this.#lookup(target));
  }

  async write(path: StoreText, contents: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const text = textArgument(target.path, "contents", contents);
    this.#checkFileLimit(target, text.byteLength);
    this.#checkCreate(target);
    this.#replace(target, textAsString(text), text.byteLength);
  }

  async append(path: StoreText, text: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const added: CheckedText = textArgument(target.path, "text", text);
    this.#checkCreate(target);
    const existing = this.#files.get(target.path);
    const before = existing === undefined ? "" : this.#existingText(target, existing);
    const bytes = (existing?.bytes ?? 0) + added.byteLength;
    this.#checkFileLimit(target, bytes);
    this.#replace(target, before + textAsString(added), bytes);
  }

  async edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const { anchor, replacement } = editArguments(target.path, oldText, newText);
    const text = this.#existingText(target, this.#lookup(target));
    const edit = replaceAnchor(text, anchor, replacement);
    if (!edit.ok) {
      throw edit.count === 0
        ? anchorNotFound(target.path)
        : anchorNotUnique(target.path, edit.count);
    }
    const bytes = Buffer.byteLength(edit.text, "utf8");
    this.#checkFileLimit(target, bytes);
    this.#replace(target, edit.text, bytes);
  }

  async delete(path: StoreText): Promise<void> {
    const target = parseStorePath(path);
    const file = this.#lookup(target);
    this.#files.delete(target.path);
    this.#usedBytes -= file.bytes;
    this.#sorted = undefined;
    for (const directory of ancestors(target)) {
      const count = (this.#directories.get(directory) ?? 1) - 1;
      if (count === 0) this.#directories.delete(directory);
      else this.#directories.set(directory, count);
    }
  }

  async exists(path: StoreText): Promise<boolean> {
    return this.#files.has(parseStorePath(path).path);
  }

  async list(prefix?: StoreText): Promise<string[]> {
    if (prefix === undefined) return this.#listed().map((entry) => entry.path);
    const directory = parseStorePath(prefix);
    if (this.#files.has(directory.path)) throw isFileNotDirectory(directory.path);
    const start = `${directory.path}/`;
    return this.#listed()
      .filter((entry) => entry.path.startsWith(start))
      .map((entry) => entry.path);
  }

  async glob(pattern: StoreText): Promise<string[]> {
    const matcher = compileGlob(pattern);
    const start = matcher.literalPrefix.length === 0 ? "" : `${matcher.literalPrefix.join("/")}/`;
    const max = matcher.maxSegments;
    return this.#listed()
      .filter(
        (entry) =>
          entry.path.startsWith(start) &&
          (max === undefined || entry.segments.length <= max) &&
          matcher.matches(entry.segments),
      )
      .map((entry) => entry.path);
  }

  /** The file at `target`; `not_found` when absent, `not_a_file` for a directory. */
  #lookup(target: StorePath): MemoryFile {
    const file = this.#files.get(target.path);
    if (file !== undefined) return file;
    if (this.#directories.has(target.path)) throw isDirectory(target.path);
    throw notFound(target.path);
  }

  /** The text of an existing file: `too_large` over the file limit, `invalid_utf8` for raw bytes. */
  #existingText(target: StorePath, file: MemoryFile): string {
    if (file.bytes > this.limits.maxFileBytes) {
      throw fileIsTooLarge(target.path, file.bytes, this.limits.maxFileBytes);
    }
    if (typeof file.value !== "string") {
      throw invalidUtf8File(target.path, utf8ValidUpTo(file.value));
    }
    return file.value;
  }

  /** `not_a_file` unless a file could be created at `target`. */
  #checkCreate(target: StorePath): void {
    for (const directory of ancestors(target)) {
      if (this.#files.has(directory)) throw parentIsFile(target.path, directory);
    }
    if (this.#directories.has(target.path)) throw isDirectory(target.path);
  }

  /** `too_large` when a file of `bytes` would pass the file limit. */
  #checkFileLimit(target: StorePath, bytes: number): void {
    if (bytes > this.limits.maxFileBytes) {
      throw fileWouldBeTooLarge(target.path, bytes, this.limits.maxFileBytes);
    }
  }

  /** Sets the file after the store limit check. */
  #replace(target: StorePath, text: string, bytes: number): void {
    const total = this.#usedBytes - (this.#files.get(target.path)?.bytes ?? 0) + bytes;
    if (total > this.limits.maxStoreBytes) {
      throw storeWouldBeTooLarge(target.path, total, this.limits.maxStoreBytes);
    }
    this.#put(target, { value: text, bytes });
  }

  /** Stores the file and updates the directory counts and the byte total. */
  #put(target: StorePath, file: MemoryFile): void {
    const previous = this.#files.get(target.path);
    if (previous === undefined) {
      for (const directory of ancestors(target)) {
        this.#directories.set(directory, (this.#directories.get(directory) ?? 0) + 1);
      }
      this.#sorted = undefined;
    }
    this.#files.set(target.path, file);
    this.#usedBytes += file.bytes - (previous?.bytes ?? 0);
  }

  /** Every file, sorted bytewise (cached until a file is added or removed). */
  #listed(): ListedPath[] {
    if (this.#sorted === undefined) {
      const paths = sortBytewise([...this.#files.keys()]);
      this.#sorted = paths.map((path) => ({ path, segments: path.split("/") }));
    }
    return this.#sorted;
  }
}

/** The directories containing `target`, outermost first (`a`, `a/b` for `a/b/c`). */
function ancestors(target: StorePath): string[] {
  const result: string[] = [];
  let prefix = "";
  for (const segment of target.segments.slice(0, -1)) {
    prefix = prefix === "" ? segment : `${prefix}/${segment}`;
    result.push(prefix);
  }
  return result;
}
