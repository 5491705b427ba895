import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputFileError } from "@runvil/host";

/** Extensions of scenario files found in directories. */
export const SCENARIO_EXTENSIONS = [".yaml", ".yml"] as const;

/** A path given to `runvil test` that does not exist, cannot be read, or holds no scenario file. */
export class ScenarioPathError extends Error {
  override readonly name = "ScenarioPathError";

  constructor(
    /** The path as given. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }

  /** Wraps a Node.js file system error (or a refused input file) for `path` in a clear message. */
  static fromFsError(path: string, error: unknown): ScenarioPathError {
    if (error instanceof InputFileError && error.problem !== "not_found") {
      return new ScenarioPathError(path, `cannot read ${path}: ${error.detail}`);
    }
    const code =
      error instanceof InputFileError
        ? "ENOENT"
        : typeof error === "object" && error !== null && "code" in error
          ? error.code
          : undefined;
    if (code === "ENOENT") return new ScenarioPathError(path, `no such file or directory: ${path}`);
    if (code === "EACCES" || code === "EPERM") {
      return new ScenarioPathError(path, `permission denied: ${path}`);
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new ScenarioPathError(path, `cannot read ${path}: ${detail}`);
  }
}

/**
 * Expands the paths given to `runvil test` into scenario files. A file is taken as named,
 * whatever its extension. A directory is searched recursively for `*.yaml` and `*.yml`
 * files, skipping entries whose name starts with "." and `node_modules`; its files are sorted
 * by path (code point order, "/" as separator). Paths keep their argument order; a file
 * reached twice is listed once. Throws {@link ScenarioPathError} for a path that does not
 * exist and for a directory without scenario files.
 */
export function collectScenarioFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    const key = realpath(file);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(file);
  };
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      throw ScenarioPathError.fromFsError(path, error);
    }
    if (!isDirectory) {
      add(path);
      continue;
    }
    const found: string[] = [];
    walk(path, found, new Set([realpath(path)]));
    if (found.length === 0) {
      throw new ScenarioPathError(path, `no scenario files (*.yaml, *.yml) under ${path}`);
    }
    found.sort(comparePaths);
    for (const file of found) add(file);
  }
  return out;
}

function walk(directory: string, found: string[], visited: Set<string>): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    throw ScenarioPathError.fromFsError(directory, error);
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(directory, entry.name);
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const stats = statSync(path);
        isDirectory = stats.isDirectory();
        isFile = stats.isFile();
      } catch {
        continue;
      }
    }
    if (isDirectory) {
      const real = realpath(path);
      if (visited.has(real)) continue;
      visited.add(real);
      walk(path, found, visited);
    } else if (isFile && SCENARIO_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
      found.push(path);
    }
  }
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function comparePaths(a: string, b: string): number {
  const left = a.replaceAll("\\", "/");
  const right = b.replaceAll("\\", "/");
  return left < right ? -1 : left > right ? 1 : 0;
}
