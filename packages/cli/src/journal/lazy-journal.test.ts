import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolders } from "./test-journal-io";

const distIndex = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const folders = tempFolders();
afterAll(() => folders.removeAll());

/** Runs `runvil ARGS…` in a fresh process (the library's runCli) and says which database clients it loaded. */
function clientsLoaded(args: readonly string[]): { codes: number[]; loaded: string[] } {
  const script = `
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runCli } from ${JSON.stringify(distIndex)};
const io = { stdout() {}, stderr(t) { process.stderr.write(t); }, readFile: async (p) => new Uint8Array(readFileSync(p)) };
const codes = [];
for (const args of ${JSON.stringify([args])}) codes.push(await runCli(args, io));
const loaded = Object.keys(createRequire(import.meta.url).cache)
  .filter((k) => /better-sqlite3|[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(k))
  .map((k) => (k.includes("better-sqlite3") ? "better-sqlite3" : "pg"));
console.log(JSON.stringify({ codes, loaded: [...new Set(loaded)] }));
`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`the process failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").pop() ?? "{}") as {
    codes: number[];
    loaded: string[];
  };
}

describe.skipIf(!existsSync(distIndex))(
  `the journal's database client loads only for a run that records${existsSync(distIndex) ? "" : " (skipped: build @runvil/cli first)"}`,
  () => {
    const prompt = (): string => {
      const file = join(folders.make(), "one.md");
      writeFileSync(
        file,
        "---\nname: one\ndescription: One.\nrunvil: 0\n---\n\n# One\n\n```lua\nreturn 'hi'\n```\n",
      );
      return file;
    };

    it("is not loaded by runvil check or runvil run --no-record", () => {
      const file = prompt();
      expect(clientsLoaded(["check", file])).toEqual({ codes: [0], loaded: [] });
      expect(clientsLoaded(["run", file, "--no-record"])).toEqual({ codes: [0], loaded: [] });
    });

    it("is loaded by a run that records", () => {
      const file = prompt();
      const journal = join(folders.make(), "runs.db");
      expect(clientsLoaded(["run", file, "--journal", journal])).toEqual({
        codes: [0],
        loaded: ["better-sqlite3"],
      });
    });
  },
);
