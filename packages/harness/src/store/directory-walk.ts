import { join } from "node:path";
import { type DirectoryStoreFileSystem, lstatOrUndefined } from "./directory-fs";
import { symbolicLink } from "./failures";

/** Where the directories of a path stand on disk. */
export type ParentWalk =
  /** Every directory exists; `directory` is the absolute path of the innermost. */
  | { readonly kind: "present"; readonly directory: string }
  /** The directory at `segments[missingFrom]` and those below it do not exist. */
  | { readonly kind: "missing"; readonly missingFrom: number }
  /** `prefix` (a store path) is a file, not a directory. */
  | { readonly kind: "file"; readonly prefix: string };

/**
 * Walks the directories that contain `segments` (all but the last) from
 * `root` with `lstat`, one segment at a time, and never follows a link: a
 * symbolic link on the way throws `invalid_path` for `path`. Creates nothing.
 */
export async function walkParents(
  fs: DirectoryStoreFileSystem,
  root: string,
  path: string,
  segments: readonly string[],
): Promise<ParentWalk> {
  let directory = root;
  for (let i = 0; i < segments.length - 1; i++) {
    directory = join(directory, segments[i] ?? "");
    const stats = await lstatOrUndefined(fs, directory);
    if (stats === undefined) return { kind: "missing", missingFrom: i };
    const prefix = segments.slice(0, i + 1).join("/");
    if (stats.isSymbolicLink()) throw symbolicLink(path, prefix);
    if (!stats.isDirectory()) return { kind: "file", prefix };
  }
  return { kind: "present", directory };
}

/** The absolute path of the store path `segments` under `root`. */
export function absolutePath(root: string, segments: readonly string[]): string {
  return join(root, ...segments);
}

/**
 * Creates the missing directories `segments[from .. length-2]` under `root`,
 * one at a time (no recursive mkdir, which would follow links).
 */
export async function createParents(
  fs: DirectoryStoreFileSystem,
  root: string,
  segments: readonly string[],
  from: number,
): Promise<string> {
  let directory = absolutePath(root, segments.slice(0, from));
  for (let i = from; i < segments.length - 1; i++) {
    directory = join(directory, segments[i] ?? "");
    await fs.mkdir(directory);
  }
  return directory;
}

/**
 * Removes the directories of `segments` that are empty, innermost first, down
 * to (not including) `segments[keep - 1]`'s directory; stops at the first one
 * that holds anything. Best effort: errors only stop the pruning.
 */
export async function pruneEmptyParents(
  fs: DirectoryStoreFileSystem,
  root: string,
  segments: readonly string[],
  keep = 0,
): Promise<void> {
  for (let end = segments.length - 1; end > keep; end--) {
    try {
      await fs.rmdir(absolutePath(root, segments.slice(0, end)));
    } catch {
      return;
    }
  }
}
