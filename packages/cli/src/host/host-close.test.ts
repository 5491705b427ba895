import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A folder with a runvil.config.json whose plugin adds `test/kit`: its close appends a line
 * to `closed.txt`, and `kit/ping` answers pong.
 */
function closingPluginDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "runvil-closing-plugin-"));
  made.push(dir);
  const closed = JSON.stringify(join(dir, "closed.txt"));
  writeFileSync(
    join(dir, "kit.mjs"),
    `import { appendFileSync } from "node:fs";
export const kitPlugin = {
  name: "kit-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "kit",
      description: "Holds a resource until the Host closes.",
      close: () => appendFileSync(${closed}, "closed\\n"),
      tools: [{ id: "kit/ping", description: "Pong.", parameters: { type: "object" }, trust: "trusted", run: () => "pong" }],
    });
  },
};
`,
  );
  writeFileSync(join(dir, "runvil.config.json"), '{ "plugins": [{ "module": "./kit.mjs" }] }');
  writeFileSync(
    join(dir, "ping.md"),
    "---\nname: ping\ndescription: Pings.\nrunvil: 0\nuses: [test/kit]\n---\n" +
      "\n# Ping\n\n## Main\n\n```lua\nreturn tools.call('kit/ping')\n```\n",
  );
  return dir;
}

describe("the CLI closes its Hosts", () => {
  it("runvil run closes the Host after the run", async () => {
    const dir = closingPluginDir();
    const file = join(dir, "ping.md");
    const io = memoryIo({ [file]: readFileSync(file, "utf8") });
    const code = await runCli(["run", file], io);
    expect(io.err).toBe("");
    expect(code).toBe(0);
    expect(io.out).toBe("pong\n");
    expect(readFileSync(join(dir, "closed.txt"), "utf8")).toBe("closed\n");
  });

  it("runvil check closes every Host it set up", async () => {
    const dir = closingPluginDir();
    const file = join(dir, "ping.md");
    const io = memoryIo({ [file]: readFileSync(file, "utf8") });
    expect(existsSync(join(dir, "closed.txt"))).toBe(false);
    expect(await runCli(["check", file], io)).toBe(0);
    expect(readFileSync(join(dir, "closed.txt"), "utf8")).toBe("closed\n");
  });
});
