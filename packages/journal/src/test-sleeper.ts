import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** A child process (tests only) that waits until it is killed. */
export interface Sleeper {
  readonly pid: number;
  /** Its start as the journal names it on Linux (`linux:{boot id}:{ticks}`). */
  readonly started: string;
  /** Kills it with SIGKILL; resolves once it exited. */
  kill(): Promise<void>;
}

/** Starts a {@link Sleeper} (Linux: it reads the child's start from /proc). */
export async function sleeper(): Promise<Sleeper> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
  await new Promise((resolve) => child.once("spawn", resolve));
  const pid = child.pid as number;
  const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  return {
    pid,
    started: `linux:${boot}:${ticks}`,
    kill: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}
