import type { Buffer } from "node:buffer";
import type { Dirent } from "node:fs";
import { join } from "node:path";
import { type DirectoryStoreFileSystem, lstatOrUndefined } from "./directory-fs";
import { segmentDetail } from "./store-path";

/**
 * How long ago a temporary file must have been last written before a store may take it for a
 * crash's leftover: 10 minutes. A live writer renames its temporary file within one store
 * operation (seconds even for a 16 MiB file on a slow disk), so a file this old is not in use
 * unless its writer has been stopped for that long.
 */
export const STALE_TEMPORARY_AGE_MS = 10 * 60 * 1000;

/** The exact name the directory store gives its temporary files (atomic-write.ts). */
const TEMPORARY_NAME = /^\.runvil-tmp-([1-9][0-9]{0,9})-[1-9][0-9]*-[0-9a-f]{8}$/;

/** What decides that a temporary file is stale. */
export interface StaleTemporaryRule {
  /** The current time, in ms since the epoch. */
  readonly now: number;
  /** This process's id: its own leftovers are stale too (none is in flight when a store opens). */
  readonly ownPid: number;
  /** Whether a process with this id runs on this machine. */
  readonly isRunning: (pid: number) => boolean;
}

/** The rule in force: the system clock and process table. */
export function currentRule(): StaleTemporaryRule {
  return { now: Date.now(), ownPid: process.pid, isRunning: processIsRunning };
}

/** Whether a process `pid` exists (signal 0 checks without sending anything). */
function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the directory store's stale temporary files under `root`, at any depth
 * (docs/design/store.md, "The directory store"). A file is removed only when all of these hold:
 * its name is exactly the store's temporary name `.runvil-tmp-{pid}-{n}-{8 hex digits}`; it is a
 * regular file (never a link or a directory); it was last written at least
 * {@link STALE_TEMPORARY_AGE_MS} ago; and its writer `pid` is this process or no running process.
 * Directories are entered only through names a store path can hold, never through a link.
 * Best effort: a file or directory that cannot be read or removed is left alone, and nothing
 * is thrown. Resolves with the number of files removed.
 */
export async function removeStaleTemporaries(
  fs: DirectoryStoreFileSystem,
  root: string,
  rule: StaleTemporaryRule = currentRule(),
): Promise<number> {
  let removed = 0;
  const directories = [root];
  for (let directory = directories.pop(); directory !== undefined; directory = directories.pop()) {
    let entries: Dirent<Buffer>[];
    try {
      entries = await fs.readdir(directory, { withFileTypes: true, encoding: "buffer" });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const name = decodeName(entry.name);
      // The store makes only directories a store path can name, and its temporaries in them.
      if (name === undefined) continue;
      const absolute = join(directory, name);
      if (entry.isDirectory()) {
        if (segmentDetail(name) === undefined) directories.push(absolute);
        continue;
      }
      const match = TEMPORARY_NAME.exec(name);
      if (match === null) continue;
      if (await isStale(fs, absolute, Number(match[1]), rule)) {
        try {
          await fs.unlink(absolute);
          removed += 1;
        } catch {
          // Gone already, or not ours to remove: leave it.
        }
      }
    }
  }
  return removed;
}

const NAME_DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decodeName(name: Buffer): string | undefined {
  try {
    return NAME_DECODER.decode(name);
  } catch {
    return undefined;
  }
}

async function isStale(
  fs: DirectoryStoreFileSystem,
  absolute: string,
  pid: number,
  rule: StaleTemporaryRule,
): Promise<boolean> {
  let stats: Awaited<ReturnType<typeof lstatOrUndefined>>;
  try {
    stats = await lstatOrUndefined(fs, absolute);
  } catch {
    return false;
  }
  if (stats === undefined || !stats.isFile()) return false;
  if (rule.now - stats.mtimeMs < STALE_TEMPORARY_AGE_MS) return false;
  return pid === rule.ownPid || !rule.isRunning(pid);
}
