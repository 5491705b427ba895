import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { DirectoryStoreFileSystem } from "./directory-fs";
import { TEMP_FILE_PREFIX } from "./limits";

let tempCounter = 0;

/** A fresh temporary file name: `.runvil-tmp-{pid}-{n}-{8 hex digits}`, never a valid path segment. */
export function tempFileName(): string {
  tempCounter += 1;
  return `${TEMP_FILE_PREFIX}-${process.pid}-${tempCounter}-${randomBytes(4).toString("hex")}`;
}

/** Flushes a directory's entries to disk; best effort (some systems cannot open a directory). */
async function syncDirectory(fs: DirectoryStoreFileSystem, directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(directory, "r");
    await handle.sync();
  } catch {
    // Durability of the rename is best effort; the new file is already in place.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Replaces (or creates) `target` in `directory` with `bytes` atomically: the
 * bytes go to a temporary file in the same directory, opened exclusively,
 * which is fsynced (when `sync`) and renamed over `target`; the directory is
 * then fsynced (when `sync`). Any failure before the rename removes the
 * temporary file and leaves `target` as it was.
 */
export async function writeFileAtomically(
  fs: DirectoryStoreFileSystem,
  directory: string,
  target: string,
  bytes: Uint8Array,
  sync: boolean,
): Promise<void> {
  const temp = join(directory, tempFileName());
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(temp, "wx", 0o666);
    await handle.writeFile(bytes);
    if (sync) await handle.sync();
    const opened = handle;
    handle = undefined;
    await opened.close();
    await fs.rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  if (sync) await syncDirectory(fs, directory);
}
