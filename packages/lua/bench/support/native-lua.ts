import { spawnSync } from "node:child_process";

/** The native `lua5.4` on the PATH, or the reason it cannot be used. */
export function findNativeLua(): { ok: true; version: string } | { ok: false; reason: string } {
  const probe = spawnSync("lua5.4", ["-v"], { encoding: "utf8" });
  if (probe.error !== undefined) {
    return { ok: false, reason: `lua5.4 is not on the PATH (${probe.error.message})` };
  }
  if (probe.status !== 0) return { ok: false, reason: `lua5.4 -v exited with ${probe.status}` };
  return { ok: true, version: (probe.stdout || probe.stderr).trim() };
}

/**
 * Runs `source` in one native lua5.4 process: one unmeasured run, then `reps` runs timed with
 * os.clock (CPU time; equal to wall time on an idle machine), each after a full collection so it
 * starts from a clean heap like a fresh VM. Returns milliseconds per run.
 */
export function runNative(source: string, reps: number): number[] {
  const script = `local f = assert(load(io.read('a')))
f()
for _ = 1, ${reps} do
  collectgarbage()
  collectgarbage()
  local t = os.clock()
  f()
  print(string.format('%.6f', (os.clock() - t) * 1000))
end`;
  const result = spawnSync("lua5.4", ["-e", script], { input: source, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`lua5.4 failed: ${result.stderr}`);
  return result.stdout.trim().split("\n").map(Number);
}
