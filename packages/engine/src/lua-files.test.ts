import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadLuaRuntime } from "./lua";

/**
 * The package's own Lua (docs/design/lua-files.md): every `.lua` file under src/ compiles through
 * @runvil/lua's compiler (the one that builds their bytecode), and every `@runvil/{name}.lua`
 * chunk name in the TypeScript names one of them, so an error inside a chunk points at a real
 * file and line.
 */
const SRC = fileURLToPath(new URL(".", import.meta.url));
const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).sort();
const luaFiles = files.filter((file) => file.endsWith(".lua"));
const runtime = await loadLuaRuntime();

describe("the package's .lua files", () => {
  it("are found", () => {
    expect(luaFiles.length).toBeGreaterThanOrEqual(6);
  });

  it.each(luaFiles)("%s compiles", (file) => {
    // Named by its path from the repository root, so a syntax error reads `packages/…:{line}:`.
    const chunkName = `@${relative(join(SRC, "../../.."), join(SRC, file))}`;
    const result = runtime.compile(readFileSync(join(SRC, file)), chunkName);
    expect(result.ok ? "compiles" : result.diagnostic).toBe("compiles");
  });

  it("have names unique in the package (a chunk is named @runvil/{file name})", () => {
    const names = luaFiles.map((file) => basename(file));
    expect(new Set(names).size).toBe(names.length);
  });

  it("are what the chunk names in the TypeScript name", () => {
    const names = new Set(luaFiles.map((file) => basename(file)));
    const named = files
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .flatMap((file) => [
        ...readFileSync(join(SRC, file), "utf8").matchAll(/"@runvil\/([\w.-]+\.lua)"/g),
      ])
      .map((match) => match[1] ?? "");
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !names.has(name))).toEqual([]);
  });
});
