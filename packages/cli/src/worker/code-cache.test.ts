import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUNDLE_IMPORT_PARAMETER, loadCachedBundle } from "./code-cache";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "runvil-code-cache-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a CommonJS bundle whose text is unique to the test (V8 keeps compiled scripts). */
function bundle(name: string, body: string): string {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, `// ${name} ${Math.random()}\n${body}\n`);
  return file;
}

describe("loadCachedBundle", () => {
  it("runs a CommonJS bundle with Node's module parameters and gives its exports", () => {
    const file = bundle(
      "params",
      "exports.answer = 42; module.exports.where = [__filename, __dirname, typeof require];",
    );
    const loaded = loadCachedBundle(file, `${file}.cache`);
    expect(loaded.cacheState).toBe("absent");
    expect(loaded.exports).toEqual({ answer: 42, where: [file, dir, "function"] });
  });

  it("writes a code cache that the next load uses", () => {
    const file = bundle("cache", "exports.twice = (n) => n * 2;");
    const first = loadCachedBundle(file, `${file}.cache`);
    expect(first.saveCache()).toBe(true);
    expect(readFileSync(`${file}.cache`).length).toBeGreaterThan(0);
    const second = loadCachedBundle(file, `${file}.cache`);
    expect(second.cacheState).toBe("accepted");
    expect((second.exports as { twice(n: number): number }).twice(21)).toBe(42);
  });

  it("compiles from source when V8 refuses the cache", () => {
    const file = bundle("refused", "exports.ok = true;");
    writeFileSync(`${file}.cache`, "not a code cache");
    const loaded = loadCachedBundle(file, `${file}.cache`);
    expect(loaded.cacheState).toBe("rejected");
    expect(loaded.exports).toEqual({ ok: true });
  });

  it("runs the bundle in strict mode, as the ES module it replaces did", () => {
    const file = bundle("strict", "undeclared = 1;");
    expect(() => loadCachedBundle(file, `${file}.cache`)).toThrow("undeclared is not defined");
  });

  it("reports the bundle's own line numbers in stack traces", () => {
    const file = bundle("lines", "\n\nthrow new Error('on line 4');");
    let stack = "";
    try {
      loadCachedBundle(file, `${file}.cache`);
    } catch (error) {
      stack = (error as Error).stack ?? "";
    }
    expect(stack).toContain(`${file}:4:`);
  });

  it("imports through its import parameter, relative to the bundle", async () => {
    writeFileSync(join(dir, "beside.mjs"), "export const beside = 'found';\n");
    const file = bundle(
      "import",
      `exports.load = () => ${BUNDLE_IMPORT_PARAMETER}("./beside.mjs"); exports.builtin = () => ${BUNDLE_IMPORT_PARAMETER}("node:path");`,
    );
    const loaded = loadCachedBundle(file, `${file}.cache`);
    const exports = loaded.exports as { load(): Promise<unknown>; builtin(): Promise<unknown> };
    expect(await exports.load()).toMatchObject({ beside: "found" });
    expect(await exports.builtin()).toHaveProperty("sep", "/");
  });

  it("imports a Node builtin as its exports and default, a function-valued one too", async () => {
    const file = bundle(
      "builtins",
      `exports.module = () => ${BUNDLE_IMPORT_PARAMETER}("module"); exports.fs = () => ${BUNDLE_IMPORT_PARAMETER}("node:fs");`,
    );
    const exports = loadCachedBundle(file, `${file}.cache`).exports as {
      module(): Promise<Record<string, unknown>>;
      fs(): Promise<Record<string, unknown>>;
    };
    const { createRequire, default: moduleDefault } = await exports.module();
    expect(typeof createRequire).toBe("function");
    expect(moduleDefault).toBe(nodeModule);
    const fs = await exports.fs();
    expect(fs.readFileSync).toBe(readFileSync);
    expect(fs.default).toHaveProperty("readFileSync", readFileSync);
    expect(Object.isFrozen(fs)).toBe(true);
  });

  it("does not write a cache where it cannot, and says so", () => {
    const file = bundle("nowhere", "exports.ok = true;");
    const loaded = loadCachedBundle(file, join(dir, "missing-dir", "bundle.cache"));
    expect(loaded.saveCache()).toBe(false);
  });
});
