import { lstat } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * The fingerprint of a directory store's file (docs/design/resume.md): its inode, size and
 * modification time in nanoseconds, or `absent`. Every change the DirectoryStore applies
 * replaces the file (a temporary file renamed over it) or removes it, so each one changes the
 * fingerprint; a failed change leaves the file, and so its fingerprint, as it was.
 */
export function directoryFingerprint(root: string): (path: string) => Promise<string> {
  const base = resolve(root);
  return async (path) => {
    try {
      const stats = await lstat(join(base, ...path.split("/")), { bigint: true });
      return `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return "absent";
      throw error;
    }
  };
}
