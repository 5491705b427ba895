import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { type DirectoryStoreFileSystem, errorCode } from "./directory-fs";
import { TEMP_FILE_PREFIX } from "./limits";

let tempCounter = 0;

/**
 * How many fresh names a write tries when its temporary file's name is taken (only a leftover of
 * an earlier process that had the same pid can take it).
 */
export const TEMP_NAME_ATTEMPTS = 8;

/**
 * A fresh temporary file name: `.runvil-tmp-{pid}-{n}-{8 hex digits}`, never a valid path
 * segment. The pid and this process's counter make it unique among running processes; the hex
 * digits (Math.random: `node:crypto` would cost every worker run ~5 ms to load,
 * docs/design/performance.md) only make a crashed earlier process's leftover under a reused pid
 * unlikely to match, and a write that meets one takes another name (the file is opened `wx`).
 */
export function tempFileName(): string {
  tempCounter += 1;
  const hex = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, "0");
  return `${TEMP_FILE_PREFIX}-${process.pid}-${tempCounter}-${hex}`;
}

/** Opens a new temporary file in `directory` (exclusively), with another name while one is taken. */
async function openTemporary(
  fs: DirectoryStoreFileSystem,
  directory: string,
): Promise<{ readonly temp: string; readonly handle: FileHandle }> {
  for (let attempt = 1; ; attempt++) {
    const temp = join(directory, tempFileName());
    try {
      return { temp, handle: await fs.open(temp, "wx", 0o666) };
    } catch (error) {
      if (errorCode(error) !== "EEXIST" || attempt >= TEMP_NAME_ATTEMPTS) throw error;
    }
  }
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
  const opened = await openTemporary(fs, directory);
  const { temp } = opened;
  let handle: FileHandle | undefined = opened.handle;
  try {
    await handle.writeFile(bytes);
    if (sync) await handle.sync();
    const written = handle;
    handle = undefined;
    await written.close();
    await fs.rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  if (sync) await syncDirectory(fs, directory);
}
