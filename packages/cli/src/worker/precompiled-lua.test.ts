import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRECOMPILED_LUA_FILE } from "./precompiled-lua";

const run = promisify(execFile);
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const packages = fileURLToPath(new URL("../../../", import.meta.url));

/** The repository files of the Engine Lua a one-section run compiles, by chunk name. */
const FILES: Record<string, string> = {
  "@runvil/errors.lua": "lua/src/errors/errors.lua",
  "@runvil/error-values.lua": "lua/src/errors/error-values.lua",
  "@runvil/globals.lua": "lua/src/globals/globals.lua",
  "@runvil/pairs.lua": "lua/src/iteration/pairs.lua",
  "@runvil/engine.lua": "engine/src/globals/engine.lua",
  "@runvil/require.lua": "engine/src/globals/require.lua",
};

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "runvil-precompiled-lua-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the Engine Lua's bytecode built with the worker bundle (dist/engine-lua.json)", () => {
  it("holds the chunks a run compiles first, each with the text of its file", () => {
    const file = JSON.parse(readFileSync(join(dist, PRECOMPILED_LUA_FILE), "utf8")) as {
      runvilPrecompiledLua: number;
      chunks: { name: string; source: string; bytecode: string }[];
    };
    expect(file.runvilPrecompiledLua).toBe(1);
    const byName = new Map(file.chunks.map((chunk) => [chunk.name, chunk]));
    for (const [name, path] of Object.entries(FILES)) {
      expect(byName.get(name)?.source).toBe(readFileSync(join(packages, path), "utf8"));
      // A Lua 5.4 dump: ESC "Lua" 0x54.
      expect([...Buffer.from(byName.get(name)?.bytecode ?? "", "base64").subarray(0, 5)]).toEqual([
        0x1b, 0x4c, 0x75, 0x61, 0x54,
      ]);
    }
  });

  it("is what a run loads, and an error through require.lua still names that file's lines", async () => {
    const prompt = join(dir, "require.md");
    writeFileSync(
      prompt,
      "---\nname: req\ndescription: A library that fails.\nrunvil: 0\n---\n\n# T\n\n## Main\n\n```lua\nrequire '## lib'\n```\n\n## lib\n\n```lua\nlocal x = nil\nreturn x.y\n```\n",
    );
    const failed = await run(
      process.execPath,
      [join(dist, "bin.js"), "run", prompt, "--no-record"],
      {
        env: { ...process.env, RUNVIL_STARTUP_MARKS: "1" },
      },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    const stderr = failed?.stderr ?? "";
    expect(stderr).toMatch(/runvil-mark [\d.]+ worker precompiled lua \(\d+ chunks\)\n/);
    const lines = readFileSync(join(packages, FILES["@runvil/require.lua"] ?? ""), "utf8").split(
      "\n",
    );
    const defined = lines.indexOf("return function(target)") + 1;
    const loads = lines.findIndex((line) => line.includes("load(blocks[i]")) + 1;
    expect(defined).toBeGreaterThan(0);
    expect(stderr).toContain(
      "Lua error: section `lib` prologue:19: runtime error: section `lib` prologue:19: attempt to index a nil value (local 'x')\nstack traceback:\n\tsection `lib` prologue:19: in main chunk\n" +
        `\trunvil/require.lua:${loads}: in function <runvil/require.lua:${defined}>\n`,
    );
  });
});
