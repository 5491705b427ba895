import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The export conditions a plugin module is resolved with, as Node's `import` uses them. */
const CONDITIONS = new Set(["import", "node", "default"]);

/** Why a module could not be resolved (the caller adds the file and key). */
export class ModuleNotFound extends Error {}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The target of an exports entry under the active conditions, or undefined (excluded). */
function conditionTarget(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (Array.isArray(entry)) {
    for (const item of entry) {
      const target = conditionTarget(item);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof entry === "object" && entry !== null) {
    for (const [condition, value] of Object.entries(entry)) {
      if (!CONDITIONS.has(condition)) continue;
      const target = conditionTarget(value);
      if (target !== undefined) return target;
    }
  }
  return undefined;
}

/** The file an `exports` field maps `subpath` (`.` or `./x`) to, relative to the package. */
function exportsTarget(exports: unknown, subpath: string): string | undefined {
  const isSubpathMap =
    typeof exports === "object" &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((key) => key.startsWith("."));
  const map = (isSubpathMap ? exports : { ".": exports }) as Record<string, unknown>;
  if (Object.hasOwn(map, subpath)) return conditionTarget(map[subpath]);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf("*");
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!subpath.startsWith(prefix) || !subpath.endsWith(suffix)) continue;
    if (subpath.length < prefix.length + suffix.length) continue;
    const match = subpath.slice(prefix.length, subpath.length - suffix.length);
    return conditionTarget(value)?.replaceAll("*", match);
  }
  return undefined;
}

/** The file of `subpath` in the package at `packageDir` (exports map, else main or the path). */
function packageFile(packageDir: string, name: string, subpath: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    exports?: unknown;
    main?: unknown;
  };
  if (manifest.exports !== undefined) {
    const target = exportsTarget(manifest.exports, subpath);
    if (target === undefined) {
      throw new ModuleNotFound(`package ${name} does not export ${subpath}`);
    }
    return join(packageDir, target);
  }
  const relative =
    subpath === "." ? (typeof manifest.main === "string" ? manifest.main : "index.js") : subpath;
  const base = join(packageDir, relative);
  for (const candidate of [base, `${base}.js`, join(base, "index.js")]) {
    if (isFile(candidate)) return candidate;
  }
  throw new ModuleNotFound(`package ${name} has no file for ${subpath}`);
}

/** Splits a bare specifier into its package name and subpath: `@a/b/c` → `@a/b`, `./c`. */
function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const size = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, size).join("/");
  const rest = parts.slice(size).join("/");
  return { name, subpath: rest === "" ? "." : `./${rest}` };
}

/**
 * The absolute file a plugin module specifier names, seen from the directory `fromDir` (the
 * configuration file's): a relative or absolute path, or a `file:` URL, is resolved against
 * it; a package name is looked up in `node_modules` from it upward and resolved through the
 * package's `exports` (conditions `import`, `node`, `default`) or `main`. Throws
 * ModuleNotFound.
 */
export function resolveModule(specifier: string, fromDir: string): string {
  if (specifier.startsWith("file:")) return fileURLToPath(specifier);
  if (specifier.startsWith("./") || specifier.startsWith("../") || isAbsolute(specifier)) {
    const file = resolve(fromDir, specifier);
    if (!isFile(file)) throw new ModuleNotFound(`no file ${file}`);
    return file;
  }
  const { name, subpath } = splitSpecifier(specifier);
  let dir = resolve(fromDir);
  for (;;) {
    const packageDir = join(dir, "node_modules", name);
    if (isFile(join(packageDir, "package.json"))) return packageFile(packageDir, name, subpath);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new ModuleNotFound(`no package ${name} in node_modules from ${resolve(fromDir)} up`);
}
