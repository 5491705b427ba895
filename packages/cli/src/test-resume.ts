import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Test support for `runvil resume` through the built CLI (dist/bin.js) in child processes:
 * project folders with a counting tool, a spawn that kills the process with SIGKILL once the
 * run's events file reaches a given number of events, and digests of a store folder (tests
 * only).
 */

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const made: string[] = [];

/** Removes every folder the helpers made (call it in afterAll). */
export function removeResumeFolders(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A project folder: `p.md`, a plugin with the counting tool `count/tick`, its config. */
export interface ResumeProject {
  readonly dir: string;
  readonly file: string;
  readonly store: string;
  readonly journal: string;
  readonly events: string;
  /** The counting tool's log: one line per call actually performed (its `n`). */
  readonly calls: string;
  /** The keyed tool's log: one JSON line `{ n, runId, effectId }` per call performed. */
  readonly keyed: string;
  /** While this file holds `{n}`, `count/keyed {n}` never answers (a call in flight at a kill). */
  readonly hold: string;
}

/**
 * Writes a project whose prompt `p.md` has `body` (Markdown after the frontmatter, sections
 * and blocks) and may use `test/count`: `count/tick {n}` appends `n` to `calls.log` (outside
 * the store, so it survives every kill) and answers `tick {n}`; `count/keyed {n}` appends
 * `{ n, runId, effectId }` of its ToolContext to `keyed.log`, then never answers while the file
 * `hold` holds `{n}`, else answers `keyed {n} {effectId}`.
 */
export function resumeProject(body: string, uses = "[test/count]"): ResumeProject {
  const dir = mkdtempSync(join(tmpdir(), "runvil-resume-"));
  made.push(dir);
  const calls = join(dir, "calls.log");
  const keyed = join(dir, "keyed.log");
  const hold = join(dir, "hold");
  writeFileSync(
    join(dir, "count-plugin.mjs"),
    `import { appendFileSync, existsSync, readFileSync } from "node:fs";
export default {
  name: "count-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "count",
      description: "Counts its calls.",
      tools: [{
        id: "count/tick",
        description: "Counts one call.",
        parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
        trust: "trusted",
        run(args) {
          appendFileSync(${JSON.stringify(calls)}, args.n + "\\n");
          return "tick " + args.n;
        },
      }, {
        id: "count/keyed",
        description: "Logs its call's ids.",
        parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
        trust: "trusted",
        run(args, ctx) {
          appendFileSync(${JSON.stringify(keyed)}, JSON.stringify({ n: args.n, runId: ctx.runId, effectId: ctx.effectId }) + "\\n");
          const held = ${JSON.stringify(hold)};
          if (existsSync(held) && readFileSync(held, "utf8") === String(args.n)) return new Promise(() => {});
          return "keyed " + args.n + " " + ctx.effectId;
        },
      }],
    });
  },
};
`,
  );
  writeFileSync(
    join(dir, "runvil.config.json"),
    '{ "plugins": [{ "module": "./count-plugin.mjs" }] }',
  );
  const file = join(dir, "p.md");
  writeFileSync(
    file,
    `---\nname: p\ndescription: A prompt the tests kill and resume.\nrunvil: 0\nuses: ${uses}\n---\n\n${body}`,
  );
  return {
    dir,
    file,
    store: join(dir, "store"),
    journal: join(dir, "runs.db"),
    events: join(dir, "events.jsonl"),
    calls,
    keyed,
    hold,
  };
}

/** How the spawned CLI ended. */
export interface CliExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link spawnCli}. */
export interface SpawnOptions {
  /** The working directory (default: the project folder of the first path argument). */
  readonly cwd: string;
  /** Written to stdin, which stays open. */
  readonly input?: string;
  /** Killed with SIGKILL once this file holds at least this many lines (polled every 2 ms). */
  readonly killAt?: { readonly file: string; readonly lines: number };
  /** `signal` is sent once, when `file` contains `text` (polled every 2 ms). */
  readonly signalAt?: {
    readonly file: string;
    readonly text: string;
    readonly signal: NodeJS.Signals;
  };
}

function contains(file: string, text: string): boolean {
  try {
    return readFileSync(file, "utf8").includes(text);
  } catch {
    return false;
  }
}

function linesOf(file: string): number {
  try {
    const text = readFileSync(file, "latin1");
    let lines = 0;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines += 1;
    return lines;
  } catch {
    return 0;
  }
}

/** Spawns the built CLI and resolves with how it ended (a watchdog kills it after 60 s). */
export function spawnCli(args: readonly string[], options: SpawnOptions): Promise<CliExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (options.input !== undefined) child.stdin.write(options.input);
    const watchdog = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const { killAt, signalAt } = options;
    const poll =
      killAt === undefined && signalAt === undefined
        ? undefined
        : setInterval(() => {
            if (killAt !== undefined && linesOf(killAt.file) >= killAt.lines) {
              child.kill("SIGKILL");
            }
            if (signalAt !== undefined && !signalled && contains(signalAt.file, signalAt.text)) {
              signalled = true;
              child.kill(signalAt.signal);
            }
          }, 2);
    child.on("error", (error) => {
      if (poll !== undefined) clearInterval(poll);
      clearTimeout(watchdog);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      if (poll !== undefined) clearInterval(poll);
      clearTimeout(watchdog);
      child.stdin.destroy();
      // Let the pipes drain before resolving.
      setImmediate(() => resolve({ code, signal, stdout, stderr }));
    });
  });
}

/**
 * Every file under `dir` with its text, by relative path (`{}` for a missing folder), as the
 * store sees it: without the directory store's temporary files (`.runvil-tmp-…`, never listed;
 * a kill during an atomic write leaves one, which the store sweeps later).
 */
export function folderDigest(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (at: string): void => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name.startsWith(".runvil-tmp")) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) visit(path);
      else files[relative(dir, path).split("\\").join("/")] = readFileSync(path, "utf8");
    }
  };
  visit(dir);
  return files;
}

/** The `n` of every call the counting tool performed, in order. */
export function performedCalls(calls: string): number[] {
  try {
    return readFileSync(calls, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map(Number);
  } catch {
    return [];
  }
}

/** Every call `count/keyed` performed, in order. */
export function keyedCalls(
  keyed: string,
): { readonly n: number; readonly runId?: string; readonly effectId: string }[] {
  try {
    return readFileSync(keyed, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** A seeded pseudo-random number generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
