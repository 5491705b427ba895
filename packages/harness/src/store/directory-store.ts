import { Buffer } from "node:buffer";
import { constants, type Stats } from "node:fs";
import * as nodeFs from "node:fs/promises";
import { join, resolve } from "node:path";
import type { RunStore, StoreText } from "@runvil/sdk";
import { StoreError } from "@runvil/sdk";
import { replaceAnchor } from "./anchor";
import { editArguments, textArgument } from "./arguments";
import { writeFileAtomically } from "./atomic-write";
import { sortBytewise } from "./bytewise";
import {
  type DirectoryStoreFileSystem,
  errorCode,
  isMissing,
  lstatOrUndefined,
} from "./directory-fs";
import { collectFiles } from "./directory-listing";
import {
  absolutePath,
  createParents,
  type ParentWalk,
  pruneEmptyParents,
  walkParents,
} from "./directory-walk";
import {
  anchorNotFound,
  anchorNotUnique,
  fileIsTooLarge,
  fileWouldBeTooLarge,
  invalidUtf8File,
  ioError,
  isDirectory,
  isFileNotDirectory,
  notFound,
  notRegularFile,
  parentIsFile,
  type StoreOperation,
  storeWouldBeTooLarge,
  symbolicLink,
} from "./failures";
import { compileGlob } from "./glob";
import { resolveStoreLimits, type StoreLimits } from "./limits";
import { type RootState, rootState } from "./root-state";
import { removeStaleTemporaries, type StaleTemporaryRule } from "./stale-temporaries";
import { parseStorePath, type StorePath } from "./store-path";
import { lossyText, textAsBytes, utf8ValidUpTo } from "./utf8";

/** Options of a DirectoryStore. */
export interface DirectoryStoreOptions {
  /** Size limits; DEFAULT_STORE_LIMITS for any not given. */
  readonly limits?: Partial<StoreLimits>;
  /**
   * fsync each new file and its directory (default true). False is still
   * atomic against a crash of the process, not against a power loss.
   */
  readonly sync?: boolean;
  /** The file system to use (default `node:fs/promises`); tests inject failures here. */
  readonly fs?: DirectoryStoreFileSystem;
  /**
   * What makes a temporary file stale when the store opens (default: the clock and the process
   * table); tests fix the time and the running processes here.
   */
  readonly staleTemporaries?: () => StaleTemporaryRule;
}

/** `O_NOFOLLOW` where the platform has it: opening a link fails instead of following it. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });

/** Where a change goes: the target, its directory, what is there now. */
interface ChangeSite {
  readonly target: StorePath;
  readonly root: string;
  readonly absolute: string;
  readonly walk: ParentWalk;
  /** The existing regular file, or undefined when there is none. */
  readonly existing: Stats | undefined;
}

/**
 * A RunStore kept in a directory on disk, so its files persist across runs
 * (`runvil run --store DIR`). Changes are atomic (temporary file, fsync,
 * rename); paths are confined to the root (a symbolic link anywhere on a path
 * is refused and never followed); operations on one root run one at a time
 * in issue order, shared by every DirectoryStore of that root in the process.
 * See docs/design/store.md, "The directory store".
 */
export class DirectoryStore implements RunStore {
  /** The root directory as given, made absolute. */
  readonly root: string;
  /** The size limits in force. */
  readonly limits: StoreLimits;
  readonly #sync: boolean;
  readonly #fs: DirectoryStoreFileSystem;
  readonly #state: RootState;
  readonly #staleRule: (() => StaleTemporaryRule) | undefined;
  #realRoot: string | undefined;

  /** A store on the directory `root` (created when the first change needs it). */
  constructor(root: string, options: DirectoryStoreOptions = {}) {
    this.root = resolve(root);
    this.limits = resolveStoreLimits(options.limits);
    this.#sync = options.sync ?? true;
    this.#fs = options.fs ?? nodeFs;
    this.#state = rootState(this.root);
    this.#staleRule = options.staleTemporaries;
  }

  read(path: StoreText): Promise<string> {
    return this.#run("read", path, async () => {
      const target = parseStorePath(path);
      const root = await this.#resolveRoot(false);
      if (root === undefined) throw notFound(target.path);
      const bytes = await this.#readExisting(target, await this.#lookup(root, target));
      return DECODER.decode(bytes);
    });
  }

  write(path: StoreText, contents: StoreText): Promise<void> {
    return this.#run("write", path, async () => {
      const target = parseStorePath(path);
      const bytes = textAsBytes(textArgument(target.path, "contents", contents));
      this.#checkFileLimit(target, bytes.length);
      const site = await this.#changeSite(target);
      await this.#commit(site, bytes);
    });
  }

  append(path: StoreText, text: StoreText): Promise<void> {
    return this.#run("append", path, async () => {
      const target = parseStorePath(path);
      const added = textAsBytes(textArgument(target.path, "text", text));
      const site = await this.#changeSite(target);
      const before =
        site.existing === undefined
          ? new Uint8Array(0)
          : await this.#readExisting(target, { absolute: site.absolute, stats: site.existing });
      this.#checkFileLimit(target, before.length + added.length);
      await this.#commit(site, Buffer.concat([before, added]));
    });
  }

  edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void> {
    return this.#run("edit", path, async () => {
      const target = parseStorePath(path);
      const { anchor, replacement } = editArguments(target.path, oldText, newText);
      const root = await this.#resolveRoot(false);
      if (root === undefined) throw notFound(target.path);
      const file = await this.#lookup(root, target);
      const text = DECODER.decode(await this.#readExisting(target, file));
      const edit = replaceAnchor(text, anchor, replacement);
      if (!edit.ok) {
        throw edit.count === 0
          ? anchorNotFound(target.path)
          : anchorNotUnique(target.path, edit.count);
      }
      const bytes = Buffer.from(edit.text, "utf8");
      this.#checkFileLimit(target, bytes.length);
      const directory = absolutePath(root, target.segments.slice(0, -1));
      await this.#commit(
        {
          target,
          root,
          absolute: file.absolute,
          walk: { kind: "present", directory },
          existing: file.stats,
        },
        bytes,
      );
    });
  }

  delete(path: StoreText): Promise<void> {
    return this.#run("delete", path, async () => {
      const target = parseStorePath(path);
      const root = await this.#resolveRoot(false);
      if (root === undefined) throw notFound(target.path);
      const file = await this.#lookup(root, target);
      await this.#fs.unlink(file.absolute);
      if (this.#state.usedBytes !== undefined) this.#state.usedBytes -= file.stats.size;
      await pruneEmptyParents(this.#fs, root, target.segments);
    });
  }

  exists(path: StoreText): Promise<boolean> {
    return this.#run("exists", path, async () => {
      const target = parseStorePath(path);
      const root = await this.#resolveRoot(false);
      if (root === undefined) return false;
      const walk = await walkParents(this.#fs, root, target.path, target.segments);
      if (walk.kind !== "present") return false;
      const stats = await lstatOrUndefined(this.#fs, absolutePath(root, target.segments));
      if (stats?.isSymbolicLink()) throw symbolicLink(target.path, target.path);
      return stats?.isFile() ?? false;
    });
  }

  list(prefix?: StoreText): Promise<string[]> {
    return this.#run("list", prefix ?? "", async () => {
      const directory = prefix === undefined ? undefined : parseStorePath(prefix);
      const root = await this.#resolveRoot(false);
      if (root === undefined) return [];
      if (directory === undefined) return this.#listed(root, []);
      const walk = await walkParents(this.#fs, root, directory.path, directory.segments);
      if (walk.kind !== "present") return [];
      const absolute = absolutePath(root, directory.segments);
      const stats = await lstatOrUndefined(this.#fs, absolute);
      if (stats === undefined) return [];
      if (stats.isSymbolicLink()) throw symbolicLink(directory.path, directory.path);
      if (stats.isFile()) throw isFileNotDirectory(directory.path);
      if (!stats.isDirectory()) return [];
      return this.#listed(absolute, directory.segments);
    });
  }

  glob(pattern: StoreText): Promise<string[]> {
    return this.#run("glob", pattern, async () => {
      const matcher = compileGlob(pattern);
      const root = await this.#resolveRoot(false);
      if (root === undefined) return [];
      let directory = root;
      for (const segment of matcher.literalPrefix) {
        directory = join(directory, segment);
        const stats = await lstatOrUndefined(this.#fs, directory);
        // Files are only what can be reached without crossing a link.
        if (stats === undefined || !stats.isDirectory()) return [];
      }
      const files = await collectFiles(this.#fs, directory, matcher.literalPrefix, {
        maxSegments: matcher.maxSegments,
      });
      return sortBytewise(
        files.filter((file) => matcher.matches(file.segments)).map((file) => file.path),
      );
    });
  }

  /**
   * Runs `body` in the root's queue; a Node file-system error becomes an
   * `io_error` naming the operation and its code (never a host path).
   */
  #run<T>(operation: StoreOperation, path: StoreText, body: () => Promise<T>): Promise<T> {
    return this.#state.queue.run(async () => {
      try {
        return await body();
      } catch (error) {
        if (error instanceof StoreError || error instanceof RangeError) throw error;
        const code = errorCode(error);
        if (code === undefined) throw error;
        throw ioError(lossyText(path), operation, code);
      }
    });
  }

  /**
   * The root's real path; undefined when it does not exist and `create` is false. The first
   * store of a root in the process to find it there (the store opens) removes the stale
   * temporary files a crash left behind (stale-temporaries.ts), before its first operation.
   */
  async #resolveRoot(create: boolean): Promise<string | undefined> {
    if (this.#realRoot !== undefined) return this.#realRoot;
    try {
      this.#realRoot = await this.#fs.realpath(this.root);
      if (!this.#state.swept) {
        this.#state.swept = true;
        await removeStaleTemporaries(this.#fs, this.#realRoot, this.#staleRule?.());
      }
      return this.#realRoot;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    if (!create) return undefined;
    await this.#fs.mkdir(this.root, { recursive: true });
    this.#realRoot = await this.#fs.realpath(this.root);
    this.#state.swept = true;
    return this.#realRoot;
  }

  /** The regular file at `target`: `not_found`, `not_a_file` or `invalid_path` (a link) otherwise. */
  async #lookup(root: string, target: StorePath): Promise<{ absolute: string; stats: Stats }> {
    const walk = await walkParents(this.#fs, root, target.path, target.segments);
    if (walk.kind !== "present") throw notFound(target.path);
    const absolute = absolutePath(root, target.segments);
    const stats = await lstatOrUndefined(this.#fs, absolute);
    if (stats === undefined) throw notFound(target.path);
    this.#checkRegular(target, stats);
    return { absolute, stats };
  }

  /** Throws unless `stats` is a regular file (a link, a directory, a FIFO ...). */
  #checkRegular(target: StorePath, stats: Stats): void {
    if (stats.isSymbolicLink()) throw symbolicLink(target.path, target.path);
    if (stats.isDirectory()) throw isDirectory(target.path);
    if (!stats.isFile()) throw notRegularFile(target.path);
  }

  /** The bytes of an existing file: `too_large` over the file limit, `invalid_utf8` if not UTF-8. */
  async #readExisting(
    target: StorePath,
    file: { absolute: string; stats: Stats },
  ): Promise<Uint8Array> {
    if (file.stats.size > this.limits.maxFileBytes) {
      throw fileIsTooLarge(target.path, file.stats.size, this.limits.maxFileBytes);
    }
    let bytes: Buffer;
    try {
      const handle = await this.#fs.open(file.absolute, constants.O_RDONLY | NO_FOLLOW);
      try {
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (errorCode(error) === "ELOOP") throw symbolicLink(target.path, target.path);
      throw error;
    }
    if (bytes.length > this.limits.maxFileBytes) {
      throw fileIsTooLarge(target.path, bytes.length, this.limits.maxFileBytes);
    }
    const validUpTo = utf8ValidUpTo(bytes);
    if (validUpTo !== bytes.length) throw invalidUtf8File(target.path, validUpTo);
    return bytes;
  }

  /** Where a change to `target` goes; `not_a_file` or `invalid_path` when it cannot. */
  async #changeSite(target: StorePath): Promise<ChangeSite> {
    const root = (await this.#resolveRoot(true)) ?? this.root;
    const walk = await walkParents(this.#fs, root, target.path, target.segments);
    if (walk.kind === "file") throw parentIsFile(target.path, walk.prefix);
    const absolute = absolutePath(root, target.segments);
    let existing: Stats | undefined;
    if (walk.kind === "present") {
      existing = await lstatOrUndefined(this.#fs, absolute);
      if (existing !== undefined) this.#checkRegular(target, existing);
    }
    return { target, root, absolute, walk, existing };
  }

  /** `too_large` when a file of `bytes` would pass the file limit. */
  #checkFileLimit(target: StorePath, bytes: number): void {
    if (bytes > this.limits.maxFileBytes) {
      throw fileWouldBeTooLarge(target.path, bytes, this.limits.maxFileBytes);
    }
  }

  /** Checks the store limit, creates missing directories and writes `bytes` atomically. */
  async #commit(site: ChangeSite, bytes: Uint8Array): Promise<void> {
    const used = await this.#usedBytes(site.root);
    const total = used - (site.existing?.size ?? 0) + bytes.length;
    if (total > this.limits.maxStoreBytes) {
      throw storeWouldBeTooLarge(site.target.path, total, this.limits.maxStoreBytes);
    }
    const segments = site.target.segments;
    const created = site.walk.kind === "missing" ? site.walk.missingFrom : undefined;
    try {
      const directory =
        site.walk.kind === "present"
          ? site.walk.directory
          : await createParents(this.#fs, site.root, segments, created ?? 0);
      await writeFileAtomically(this.#fs, directory, site.absolute, bytes, this.#sync);
    } catch (error) {
      if (created !== undefined) await pruneEmptyParents(this.#fs, site.root, segments, created);
      throw error;
    }
    this.#state.usedBytes = total;
  }

  /** Bytes of store files under the root, counted on first need and kept up to date after. */
  async #usedBytes(root: string): Promise<number> {
    if (this.#state.usedBytes === undefined) {
      const files = await collectFiles(this.#fs, root, [], { sizes: true });
      this.#state.usedBytes = files.reduce((sum, file) => sum + file.size, 0);
    }
    return this.#state.usedBytes;
  }

  /** The sorted store paths of every file under `directory` (store path `prefix`). */
  async #listed(directory: string, prefix: readonly string[]): Promise<string[]> {
    const files = await collectFiles(this.#fs, directory, prefix);
    return sortBytewise(files.map((file) => file.path));
  }
}
