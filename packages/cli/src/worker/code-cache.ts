import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";

/**
 * The name under which a bundle loaded by {@link loadCachedBundle} reaches `import()`: its
 * build rewrites every dynamic `import(...)` to a call of this parameter (Node 20 cannot run
 * `import()` in a script compiled from V8's code cache; docs/design/performance.md). As long as
 * `import`, so the rewrite keeps every column (and the source map) in place.
 */
export const BUNDLE_IMPORT_PARAMETER = "$rvImp";

/** The workerData that asks dist/worker.cjs (loader.ts) to run the warm-up and save the code cache. */
export const WARM_UP_WORKER_DATA = "runvil:warm-up";

/** What became of the code cache when a bundle was compiled. */
export type CodeCacheState =
  /** No cache file (or it could not be read): the bundle was compiled from source. */
  | "absent"
  /** V8 refused the cache (another Node or V8 version, other flags, another bundle). */
  | "rejected"
  /** V8 used the cache. */
  | "accepted";

/** A CommonJS bundle compiled and run by {@link loadCachedBundle}. */
export interface CachedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: unknown;
  /** Whether the cache was used. */
  readonly cacheState: CodeCacheState;
  /**
   * Writes a fresh code cache for the bundle (with every function compiled so far) to the cache
   * file, atomically (a temporary file renamed over it). True when written; false when it could
   * not be (a read-only install, say): the cache is an optimization, never a requirement.
   */
  saveCache(): boolean;
}

/** Bytes of the file, or undefined when it cannot be read. */
function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs the CommonJS bundle `file` the way Node's own loader would (strict mode,
 * with `exports`, `require`, `module`, `__filename` and `__dirname`), using the V8 code cache in
 * `cacheFile` when V8 accepts it. Node 20 has no compile cache for modules
 * (`module.enableCompileCache` came in Node 22), so this is how the 1.3 MB worker bundle skips
 * most of its parse and compile at each `runvil run`. The bundle reaches `import()` through
 * the {@link BUNDLE_IMPORT_PARAMETER} parameter: a relative specifier is resolved against the
 * bundle's own URL, a bare one from this module (which the build puts beside the bundle).
 * Throws what the bundle throws while it runs.
 */
export function loadCachedBundle(file: string, cacheFile: string): CachedBundle {
  // latin1 keeps the bytes as one-byte characters: the build checks that the bundle is ASCII.
  const source = readFileSync(file, "latin1");
  const cachedData = readOptional(cacheFile);
  // The bundle starts on the wrapper's second line, so its line numbers stay the file's.
  const wrapper = `(function (exports, require, module, __filename, __dirname, ${BUNDLE_IMPORT_PARAMETER}) {"use strict";\n${source}\n})`;
  const script = new Script(wrapper, {
    filename: file,
    lineOffset: -1,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  let cacheState: CodeCacheState = "absent";
  if (cachedData !== undefined)
    cacheState = script.cachedDataRejected === true ? "rejected" : "accepted";
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const bundleUrl = pathToFileURL(file);
  const requireFromBundle = createRequire(file);
  const importFromBundle = (specifier: string): Promise<unknown> =>
    isBuiltin(specifier)
      ? Promise.resolve().then(() => builtinNamespace(requireFromBundle(specifier)))
      : import(isRelative(specifier) ? new URL(specifier, bundleUrl).href : specifier);
  run.call(
    module.exports,
    module.exports,
    requireFromBundle,
    module,
    file,
    dirname(file),
    importFromBundle,
  );
  return {
    exports: module.exports,
    cacheState,
    saveCache: () => writeAtomically(cacheFile, () => script.createCachedData()),
  };
}

/**
 * What `import()` of a Node builtin gives (its exports as named bindings, and itself as
 * `default`), made from the builtin's `require`: a worker whose entry is CommonJS then never
 * starts Node's ES module loader for wasmoon's `import("module")` (~10 ms of internal modules
 * compiled in a fresh worker; docs/design/performance.md). Each binding is a getter, so a lazy
 * property of the builtin (fs.promises) loads only when read.
 */
function builtinNamespace(exports: unknown): unknown {
  const namespace: Record<string, unknown> = Object.create(null);
  if ((typeof exports === "object" && exports !== null) || typeof exports === "function") {
    for (const key of Object.keys(exports)) {
      Object.defineProperty(namespace, key, {
        enumerable: true,
        get: () => (exports as Record<string, unknown>)[key],
      });
    }
  }
  Object.defineProperty(namespace, "default", { enumerable: true, value: exports });
  return Object.freeze(namespace);
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/** Writes `bytes()` to `file` through a temporary file; `bytes` is not called when the directory is read-only. */
function writeAtomically(file: string, bytes: () => Buffer): boolean {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temporary, "wx");
  } catch {
    return false;
  }
  try {
    writeFileSync(fd, bytes());
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
    return true;
  } catch {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // nothing was written
    }
    return false;
  }
}
