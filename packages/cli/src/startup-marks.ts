/**
 * Start-up marks for profiling `runvil run`'s cold start (docs/design/performance.md): with
 * RUNVIL_STARTUP_MARKS=1 in the environment, each {@link startupMark} writes one line to
 * standard error, `runvil-mark <ms> <thread> <name>`, where `<ms>` is milliseconds since the
 * process started (the main thread's time origin, handed to a worker through the
 * environment, which worker threads share). Without the variable a mark does nothing.
 */
import { writeSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

/** The environment variable that turns the marks on. */
export const STARTUP_MARKS_ENV = "RUNVIL_STARTUP_MARKS";
const ORIGIN_ENV = "RUNVIL_STARTUP_ORIGIN";

const enabled = process.env[STARTUP_MARKS_ENV] === "1";
if (enabled && isMainThread && process.env[ORIGIN_ENV] === undefined) {
  process.env[ORIGIN_ENV] = String(performance.timeOrigin);
}

/** The line a mark writes: `runvil-mark <ms since origin> <main|worker> <name>`. */
export function formatStartupMark(name: string, sinceOrigin: number, main: boolean): string {
  return `runvil-mark ${sinceOrigin.toFixed(1)} ${main ? "main" : "worker"} ${name}\n`;
}

/** Writes a start-up mark named `name` when RUNVIL_STARTUP_MARKS=1; otherwise does nothing. */
export function startupMark(name: string): void {
  if (!enabled) return;
  const origin = Number(process.env[ORIGIN_ENV] ?? performance.timeOrigin);
  const since = performance.timeOrigin + performance.now() - origin;
  // Synchronous: a worker's process.stderr is forwarded by the main thread, which may exit first.
  writeSync(2, formatStartupMark(name, since, isMainThread));
}
