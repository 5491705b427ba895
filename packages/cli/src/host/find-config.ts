import { stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

/** The name of the Host configuration file the CLI looks up. */
export const CONFIG_FILE_NAME = "runvil.config.json";

async function kind(path: string): Promise<"file" | "other" | "none"> {
  try {
    return (await stat(path)).isFile() ? "file" : "other";
  } catch {
    return "none";
  }
}

/** `path` relative to the working directory when it lies inside it, else absolute. */
function displayPath(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown === "" || shown.startsWith("..") || isAbsolute(shown) ? path : shown;
}

/**
 * The nearest `runvil.config.json` from `startDir` upward: the first directory that holds one
 * (as a file) wins. The walk stops after the filesystem root and after a directory holding
 * `.git` (a repository's root is searched, its parent is not). Undefined when none is found.
 * The path is relative to the working directory when it lies inside it.
 */
export async function findConfigFile(startDir: string): Promise<string | undefined> {
  let dir = resolve(startDir);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if ((await kind(candidate)) === "file") return displayPath(candidate);
    if ((await kind(join(dir, ".git"))) !== "none") return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
