import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder holding one prompt `p.md` whose only section runs `lua`. */
function promptDir(lua: string, uses = ""): { dir: string; file: string; store: string } {
  const dir = mkdtempSync(join(tmpdir(), "runvil-cancel-"));
  made.push(dir);
  const file = join(dir, "p.md");
  const frontmatter = `---\nname: p\ndescription: A prompt the tests interrupt.\nrunvil: 0\n${uses}---\n`;
  writeFileSync(file, `${frontmatter}\n# P\n\n## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`);
  return { dir, file, store: join(dir, "store") };
}

/**
 * A prompt calling `stuck/forever`, a tool of the plugin in the folder's runvil.config.json that
 * writes `marker` and then holds the run's thread in a JavaScript loop: no Lua instruction runs
 * and no wait can be aborted, so only terminating the thread ends the run. The marker is written
 * from inside the stuck call, so a SIGINT sent once it exists always finds the run stuck.
 */
function stuckPrompt(): { file: string; marker: string } {
  const { dir, file } = promptDir("return tools.call('stuck/forever')", "uses: [test/stuck]\n");
  const marker = join(dir, "stuck.txt");
  writeFileSync(
    join(dir, "stuck-plugin.mjs"),
    `import { writeFileSync } from "node:fs";
export default {
  name: "stuck-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "stuck",
      description: "Holds the thread forever.",
      tools: [{
        id: "stuck/forever",
        description: "Never returns.",
        parameters: { type: "object", properties: {} },
        trust: "trusted",
        run() {
          writeFileSync(${JSON.stringify(marker)}, "x");
          for (;;) {}
        },
      }],
    });
  },
};
`,
  );
  writeFileSync(
    join(dir, "runvil.config.json"),
    '{ "plugins": [{ "module": "./stuck-plugin.mjs" }] }',
  );
  return { file, marker };
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Spawns the built CLI with `args`, writes `input` to its stdin (kept open), waits until the
 * run has written `marker` into its store directory, then sends SIGINT (with `repeat`, again
 * every 10 ms until the process ends: signals sent at once may merge into one), and resolves
 * with how the process ended. The marker is how the test knows the run got to the
 * point it wants to interrupt; no delay is assumed anywhere.
 */
function interruptWhen(
  args: readonly string[],
  marker: string,
  options: { input?: string; repeat?: boolean } = {},
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (options.input !== undefined) child.stdin.write(options.input);
    // A process that outlives its Ctrl-C fails the test with what it printed, not a timeout.
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 30_000);
    let sent = false;
    const poll = setInterval(() => {
      if (sent && options.repeat !== true) return;
      if (!sent && !existsSync(marker)) return;
      sent = true;
      child.kill("SIGINT");
    }, 10);
    child.on("error", (error) => {
      clearInterval(poll);
      clearTimeout(watchdog);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      clearInterval(poll);
      clearTimeout(watchdog);
      child.stdin.destroy();
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe("Ctrl-C on the built runvil (a real child process)", () => {
  it("stops a block spinning in `while true do end` and exits 130", async () => {
    const { file, store } = promptDir("store.write('started.txt', 'x')\nwhile true do end");
    const exit = await interruptWhen(["run", file, "--store", store], join(store, "started.txt"));
    expect(exit).toEqual({ code: 130, signal: null, stdout: "", stderr: "run cancelled\n" });
  });

  it("reports the cancelled run on --json", async () => {
    const { file, store } = promptDir(
      "var.spun = true\nstore.write('started.txt', 'x')\nwhile true do end",
    );
    const exit = await interruptWhen(
      ["run", file, "--store", store, "--json"],
      join(store, "started.txt"),
    );
    expect(exit.code).toBe(130);
    expect(JSON.parse(exit.stdout)).toEqual({ outcome: "cancelled", var: {} });
    expect(exit.stderr).toBe("");
  });

  it("cancels a pending input.ask", async () => {
    const { file, store } = promptDir(
      "store.write('asked.txt', input.ask())\nreturn 'answered ' .. input.ask()",
      "uses: [user-input]\n",
    );
    const exit = await interruptWhen(
      ["run", file, "--store", store, "--input", "stdin"],
      join(store, "asked.txt"),
      { input: "first\n" },
    );
    expect(exit).toEqual({ code: 130, signal: null, stdout: "", stderr: "run cancelled\n" });
  });

  it("terminates a run still stuck after the grace period", async () => {
    const { file, marker } = stuckPrompt();
    const exit = await interruptWhen(["run", file], marker);
    expect(exit).toEqual({
      code: 130,
      signal: null,
      stdout: "",
      stderr:
        "run cancelled (it did not stop within the grace period; its thread was terminated)\n",
    });
  });

  it("exits at once on a second Ctrl-C", async () => {
    const { file, marker } = stuckPrompt();
    const exit = await interruptWhen(["run", file], marker, { repeat: true });
    expect(exit).toEqual({ code: 130, signal: null, stdout: "", stderr: "run cancelled\n" });
  });
});
