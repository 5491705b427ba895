import type { Stats } from "node:fs";
import type * as fsPromises from "node:fs/promises";

/**
 * The part of `node:fs/promises` a DirectoryStore uses. Tests pass a wrapper
 * to inject failures (a rename that fails, a write that stops halfway).
 */
export type DirectoryStoreFileSystem = Pick<
  typeof fsPromises,
  "lstat" | "mkdir" | "open" | "readdir" | "realpath" | "rename" | "rmdir" | "unlink"
>;

/** The errno name of a Node file-system error (`ENOENT`, ...), or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code: unknown = error.code;
  return typeof code === "string" ? code : undefined;
}

/** Whether the error says the path (or a directory on it) does not exist. */
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** `lstat(path)`, or undefined when nothing is there. */
export async function lstatOrUndefined(
  fs: DirectoryStoreFileSystem,
  path: string,
): Promise<Stats | undefined> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
