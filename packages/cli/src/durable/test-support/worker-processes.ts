import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../../dist/bin.js", import.meta.url));

/** One `runvil worker` process slot: started again with the same executor id after a kill. */
export class WorkerSlot {
  readonly executorId: string;
  readonly log: string[] = [];
  readonly killedPids: number[] = [];
  readonly #args: readonly string[];
  readonly #env: NodeJS.ProcessEnv;
  #child: ChildProcess | undefined;
  #exited: Promise<number | null> = Promise.resolve(null);
  #exitedBy: string | undefined;

  constructor(executorId: string, args: readonly string[], env: NodeJS.ProcessEnv) {
    this.executorId = executorId;
    this.#args = args;
    this.#env = env;
  }

  get alive(): boolean {
    return this.#child !== undefined;
  }

  /** How the current process ended on its own (`code 1`, `signal SIGKILL`), undefined while it runs. */
  get exitedBy(): string | undefined {
    return this.#exitedBy;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the worker process. */
  start(): void {
    const child = spawn(
      process.execPath,
      [bin, "worker", "--executor-id", this.executorId, ...this.#args],
      { env: this.#env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const pid = child.pid;
    child.stdout?.on("data", (data) => this.log.push(`[${pid}] ${String(data)}`));
    child.stderr?.on("data", (data) => this.log.push(`[${pid}] ${String(data)}`));
    this.#exitedBy = undefined;
    this.#exited = new Promise((resolve) =>
      child.on("exit", (code, signal) => {
        this.#exitedBy = code === null ? `signal ${String(signal)}` : `code ${code}`;
        resolve(code);
      }),
    );
    this.#child = child;
  }

  /** Resolves once the worker's output holds `text` (rejects when it exits first or after `ms`, with the output). */
  async waitForLog(text: string, ms = 60_000): Promise<void> {
    const end = Date.now() + ms;
    while (!this.log.join("").includes(text)) {
      if (this.#exitedBy !== undefined) {
        throw new Error(
          `worker ${this.executorId} exited (${this.#exitedBy}) without saying ${JSON.stringify(text)}:\n${this.log.join("")}`,
        );
      }
      if (Date.now() > end)
        throw new Error(
          `worker ${this.executorId} never said ${JSON.stringify(text)}:\n${this.log.join("")}`,
        );
      await sleep(100);
    }
  }

  /** SIGKILLs the worker (no drain, nothing recorded) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    if (child.pid !== undefined) this.killedPids.push(child.pid);
    child.kill("SIGKILL");
    await this.#exited;
    this.#child = undefined;
  }

  /** SIGTERMs the worker (it drains) and resolves with its exit code. */
  async terminate(): Promise<number | null> {
    const child = this.#child;
    if (child === undefined) return null;
    child.kill("SIGTERM");
    const code = await this.#exited;
    this.#child = undefined;
    return code;
  }
}

/** A seeded pseudo-random generator in [0, 1) (mulberry32): the kill instants of a test run. */
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

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What a `runvil` process printed and its exit code. */
export interface CliProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `runvil` with `args` in a process of its own and resolves when it exits. */
export function runCliProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (data) => {
      stdout += String(data);
    });
    child.stderr?.on("data", (data) => {
      stderr += String(data);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
