import { Buffer } from "node:buffer";
import type { Dirent } from "node:fs";
import { join } from "node:path";
import { type DirectoryStoreFileSystem, isMissing, lstatOrUndefined } from "./directory-fs";
import { MAX_PATH_BYTES } from "./limits";
import { segmentDetail } from "./store-path";

/** A store file found on disk. */
export interface ListedFile {
  /** Its store path. */
  readonly path: string;
  /** Its path segments. */
  readonly segments: readonly string[];
  /** Its size in bytes (0 unless sizes were asked for). */
  readonly size: number;
}

/** What collectFiles looks for. */
export interface CollectOptions {
  /** Stop descending below this many segments (undefined: no limit). */
  readonly maxSegments?: number | undefined;
  /** Read each file's size (one lstat per file). */
  readonly sizes?: boolean;
}

const NAME_DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The name as text, or undefined when its bytes are not UTF-8. */
function decodeName(name: Buffer): string | undefined {
  try {
    return NAME_DECODER.decode(name);
  } catch {
    return undefined;
  }
}

/** What a directory entry is: a regular file, a directory, or anything else (links included). */
async function entryKind(
  fs: DirectoryStoreFileSystem,
  entry: Dirent<Buffer>,
  absolute: string,
): Promise<"file" | "directory" | "other"> {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  if (
    entry.isSymbolicLink() ||
    entry.isFIFO() ||
    entry.isSocket() ||
    entry.isBlockDevice() ||
    entry.isCharacterDevice()
  ) {
    return "other";
  }
  // The file system did not report a type (DT_UNKNOWN): ask lstat.
  const stats = await lstatOrUndefined(fs, absolute);
  if (stats?.isFile()) return "file";
  if (stats?.isDirectory()) return "directory";
  return "other";
}

/**
 * Every store file in the directory `directory` (whose store path is
 * `prefix`) at any depth, unsorted: regular files reached without crossing a
 * symbolic link, whose every segment is a valid path segment and whose path
 * is at most 1024 bytes. Links, FIFOs, sockets, devices, temporary files and
 * names that are not UTF-8 are skipped. A directory that vanishes while it is
 * read counts as empty.
 */
export async function collectFiles(
  fs: DirectoryStoreFileSystem,
  directory: string,
  prefix: readonly string[],
  options: CollectOptions = {},
): Promise<ListedFile[]> {
  const found: ListedFile[] = [];
  await collectInto(fs, directory, prefix, options, found);
  return found;
}

async function collectInto(
  fs: DirectoryStoreFileSystem,
  directory: string,
  prefix: readonly string[],
  options: CollectOptions,
  found: ListedFile[],
): Promise<void> {
  let entries: Dirent<Buffer>[];
  try {
    entries = await fs.readdir(directory, { withFileTypes: true, encoding: "buffer" });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  const below: Promise<void>[] = [];
  for (const entry of entries) {
    const name = decodeName(entry.name);
    if (name === undefined || segmentDetail(name) !== undefined) continue;
    const segments = [...prefix, name];
    const path = segments.join("/");
    if (Buffer.byteLength(path, "utf8") > MAX_PATH_BYTES) continue;
    const absolute = join(directory, name);
    below.push(
      entryKind(fs, entry, absolute).then(async (kind) => {
        if (kind === "file") {
          const size = options.sizes ? ((await lstatOrUndefined(fs, absolute))?.size ?? 0) : 0;
          found.push({ path, segments, size });
        } else if (
          kind === "directory" &&
          (options.maxSegments === undefined || segments.length < options.maxSegments)
        ) {
          await collectInto(fs, absolute, segments, options, found);
        }
      }),
    );
  }
  await Promise.all(below);
}
