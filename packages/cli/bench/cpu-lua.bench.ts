import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";
import {
  hasNativeLua,
  luaFile,
  median,
  promptFile,
  timeProcess,
  WORKLOADS,
} from "./support/cpu-workloads";

/**
 * CPU-bound Lua in a section through `runvil run` (whole process), net of start-up: each
 * workload's run minus the run of the same prompt returning 0, medians of 5 interleaved rounds.
 * Three ways, in the same rounds: as shipped (hook-free: the cancel watchdog arms the hook only
 * when a cancel comes, docs/design/lua-vm.md), with `RUNVIL_LUA_SHARED_MEMORY=0` (no shared
 * memory: the count hook armed all along, the design before hook-free cancellation and the
 * fallback), and native lua5.4 (`lua5.4 file`, when on the PATH). Wall time, and CPU time of
 * all threads (user + system, where /usr/bin/time exists: steadier on a loaded machine). Goal:
 * hook-free ≤ 1.3× native. Needs the built dist/.
 */

const ROUNDS = 5;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "runvil-cpu-lua-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fallbackEnv = { ...process.env, RUNVIL_LUA_SHARED_MEMORY: "0" };
const emptyPrompt = promptFile(dir, "empty", "return 0");
const emptyLua = luaFile(dir, "empty", "return 0");
const run = (file: string) => [bin, "run", file, "--no-record"];

/** Wall and CPU of `measure()` minus those of `base()`, measured back to back. */
function net(
  measure: () => { wall: number; cpu: number },
  base: () => { wall: number; cpu: number },
) {
  const a = measure();
  const b = base();
  return { wall: a.wall - b.wall, cpu: a.cpu - b.cpu };
}

timeProcess(process.execPath, run(emptyPrompt)); // file and code caches
const lines = [
  "CPU-bound Lua through `runvil run`, net of start-up (medians of 5 interleaved rounds, ms; wall / CPU):",
];
const fmt = (n: number): string => (Number.isNaN(n) ? "-" : n.toFixed(0));
const ratio = (a: number, b: number): string => (Number.isNaN(a / b) ? "-" : (a / b).toFixed(2));
for (const { name, lua } of WORKLOADS) {
  const prompt = promptFile(dir, name, lua);
  const script = luaFile(dir, name, lua);
  const free: { wall: number; cpu: number }[] = [];
  const hooked: { wall: number; cpu: number }[] = [];
  const native: { wall: number; cpu: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    free.push(
      net(
        () => timeProcess(process.execPath, run(prompt)),
        () => timeProcess(process.execPath, run(emptyPrompt)),
      ),
    );
    hooked.push(
      net(
        () => timeProcess(process.execPath, run(prompt), fallbackEnv),
        () => timeProcess(process.execPath, run(emptyPrompt), fallbackEnv),
      ),
    );
    if (hasNativeLua)
      native.push(
        net(
          () => timeProcess("lua5.4", [script]),
          () => timeProcess("lua5.4", [emptyLua]),
        ),
      );
  }
  const m = (rows: { wall: number; cpu: number }[], key: "wall" | "cpu") =>
    median(rows.map((row) => row[key]));
  const [fw, fc, hw, hc] = [m(free, "wall"), m(free, "cpu"), m(hooked, "wall"), m(hooked, "cpu")];
  const [nw, nc] = hasNativeLua ? [m(native, "wall"), m(native, "cpu")] : [Number.NaN, Number.NaN];
  lines.push(
    `  ${name.padEnd(15)} hook-free ${fmt(fw)} / ${fmt(fc)}, hook armed (fallback) ${fmt(hw)} / ${fmt(hc)}, ` +
      (hasNativeLua
        ? `native ${fmt(nw)} / ${fmt(nc)} -> hook-free ${ratio(fw, nw)}x / ${ratio(fc, nc)}x, ` +
          `hook ${ratio(hw, nw)}x / ${ratio(hc, nc)}x native (goal <= 1.3x)`
        : "(native lua5.4 not on the PATH)"),
  );
}
console.log(`\n${lines.join("\n")}\n`);

describe("fib(32) in a section through runvil run", () => {
  const prompt = promptFile(dir, "fib-bench", WORKLOADS[0]?.lua ?? "");
  bench(
    "hook-free",
    () => {
      timeProcess(process.execPath, run(prompt));
    },
    { iterations: 3, time: 0 },
  );
  bench(
    "hook armed (RUNVIL_LUA_SHARED_MEMORY=0)",
    () => {
      timeProcess(process.execPath, run(prompt), fallbackEnv);
    },
    { iterations: 3, time: 0 },
  );
});
