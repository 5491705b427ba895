import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Test support for the spawned, built CLI (dist/bin.js): prompt folders, a prompt stuck in a
 * JavaScript loop, and a spawn that sends signals once a marker file exists (tests only).
 */

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const made: string[] = [];

/** Removes every folder the helpers made (call it in afterAll). */
export function removeTestFolders(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh folder holding one prompt `p.md` whose only section runs `lua`. */
export function promptDir(lua: string, uses = ""): { dir: string; file: string; store: string } {
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
 * from inside the stuck call, so a signal sent once it exists always finds the run stuck.
 */
export function stuckPrompt(): { file: string; marker: string } {
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

/** How the spawned CLI ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link signalWhen}. */
export interface SignalOptions {
  /** Written to the CLI's stdin (kept open). */
  readonly input?: string;
  /** The signals to send, in order, one per poll (default `["SIGINT"]`). */
  readonly signals?: readonly NodeJS.Signals[];
  /** Send the last signal again every 10 ms until the process ends. */
  readonly repeat?: boolean;
  /**
   * Wait this long after `marker` appears before the first signal (default 0): for a run that
   * must be inside the statement after the marker's write, not still returning from it.
   */
  readonly settleMs?: number;
}

/**
 * Spawns the built CLI with `args`, writes `input` to its stdin (kept open), waits until the
 * run has written `marker`, then sends `signals` one per 10 ms poll (with `repeat`, the last one
 * again every 10 ms until the process ends: signals sent at once may merge into one), and
 * resolves with how the process ended. The marker is how the test knows the run got to the
 * point it wants to interrupt; no delay is assumed anywhere.
 */
export function signalWhen(
  args: readonly string[],
  marker: string,
  options: SignalOptions = {},
): Promise<Exit> {
  const signals = options.signals ?? ["SIGINT"];
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
    // A process that outlives its signals fails the test with what it printed, not a timeout.
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 30_000);
    let sent = 0;
    let seenAt: number | undefined;
    const poll = setInterval(() => {
      if (sent === 0) {
        if (seenAt === undefined) {
          if (!existsSync(marker)) return;
          seenAt = Date.now();
        }
        if (Date.now() - seenAt < (options.settleMs ?? 0)) return;
      }
      const next = signals[sent] ?? (options.repeat === true ? signals.at(-1) : undefined);
      if (next === undefined) return;
      sent += 1;
      child.kill(next);
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
