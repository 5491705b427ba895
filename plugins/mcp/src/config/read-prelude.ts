import { readFileSync, statSync } from "node:fs";

/** The largest prelude file read (1 MiB): a prelude only defines helpers. */
export const MAX_PRELUDE_BYTES = 1024 * 1024;

/** The text of a prelude file (UTF-8), or the problem reading it. */
export function readPrelude(path: string): string | { readonly problem: string } {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return { problem: "is not a regular file" };
    size = stats.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === "ENOENT" ? "no such file" : `cannot be read (${code ?? "error"})` };
  }
  if (size > MAX_PRELUDE_BYTES) {
    return { problem: `is larger than ${MAX_PRELUDE_BYTES} bytes` };
  }
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
}
