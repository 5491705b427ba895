import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";
import { hasNativeLua, median, WORKLOADS } from "./support/cpu-workloads";

/**
 * The Lua thread's own CPU time (lua-vm.md "Tier-up"): each workload as the first and the second
 * block of a fresh process (support/lua-thread-cpu.mjs: VMs with a cancel flag, as `runvil run`
 * makes them, under `--wasm-tiering-budget=50000000` as the CLI sets it), read from the thread's
 * schedstat, which a loaded machine distorts far less than wall time; native lua5.4's `os.clock`
 * around the same code. `RUNVIL_BENCH_BASE_LUA` = another build's `packages/lua/dist/index.js`
 * (a worktree of main) adds that build, measured in the same interleaved rounds: before / after
 * a change. Two starts: as `runvil run` (the first VM hooked until the watchdog it starts runs),
 * and "watched" (the watchdog started a second before, as a long-lived host does: the first block
 * hook-free from its start). fib also runs with the hook armed all along
 * (`RUNVIL_LUA_SHARED_MEMORY=0`). Medians of `RUNVIL_BENCH_ROUNDS` (default 5) rounds. Needs the
 * built dist/ of @runvil/lua.
 */

const ROUNDS = Number(process.env.RUNVIL_BENCH_ROUNDS ?? 5);
const script = fileURLToPath(new URL("./support/lua-thread-cpu.mjs", import.meta.url));
const builds = [
  { name: "this build", dist: fileURLToPath(new URL("../../lua/dist/index.js", import.meta.url)) },
  ...(process.env.RUNVIL_BENCH_BASE_LUA === undefined
    ? []
    : [{ name: "base", dist: process.env.RUNVIL_BENCH_BASE_LUA }]),
];
const hookedEnv = { ...process.env, RUNVIL_LUA_SHARED_MEMORY: "0" };
const dir = mkdtempSync(join(tmpdir(), "runvil-lua-thread-cpu-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Blocks {
  first: number;
  second: number;
}

/** One fresh process running `file` as two blocks: the Lua thread's CPU ms of each. */
function blocks(dist: string, file: string, env?: NodeJS.ProcessEnv, watched = false): Blocks {
  const args = [
    "--wasm-tiering-budget=50000000",
    script,
    dist,
    file,
    ...(watched ? ["watched"] : []),
  ];
  const result = spawnSync(process.execPath, args, { encoding: "utf8", env });
  if (result.status !== 0) throw new Error(`lua-thread-cpu.mjs ${file} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Blocks;
}

/** Native lua5.4's CPU ms for the same code (inside a function, as a block is). */
function native(file: string): number {
  const result = spawnSync("lua5.4", [file], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`lua5.4 ${file} failed: ${result.stderr}`);
  return Number(result.stdout);
}

const fmt = (n: number): string => (Number.isNaN(n) ? "-" : n.toFixed(0));
const x = (a: number, b: number): string =>
  Number.isNaN(a / b) ? "" : ` (${(a / b).toFixed(2)}x)`;
const lines = [
  `Lua thread CPU ms, first / second block of a fresh process (medians of ${ROUNDS} interleaved rounds; × native):`,
];
WORKLOADS.forEach(({ name, lua }, w) => {
  const file = join(dir, `block-${w}.lua`);
  writeFileSync(file, lua);
  const nativeFile = join(dir, `native-${w}.lua`);
  writeFileSync(
    nativeFile,
    `local function main()\n${lua}\nend\nlocal t = os.clock() main() io.write(string.format('%.3f', (os.clock() - t) * 1000))\n`,
  );
  const hooked = w === 0;
  const free = builds.map(() => [] as Blocks[]);
  const early = builds.map(() => [] as Blocks[]);
  const armed = builds.map(() => [] as Blocks[]);
  const natives: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The builds in turn, the other way round every second round (no order effect).
    const order = builds.map((_, b) => (round % 2 === 0 ? b : builds.length - 1 - b));
    for (const b of order) {
      free[b]?.push(blocks(builds[b]?.dist ?? "", file));
      early[b]?.push(blocks(builds[b]?.dist ?? "", file, undefined, true));
      if (hooked) armed[b]?.push(blocks(builds[b]?.dist ?? "", file, hookedEnv));
    }
    if (hasNativeLua) natives.push(native(nativeFile));
  }
  const n = hasNativeLua ? median(natives) : Number.NaN;
  const m = (rows: Blocks[] | undefined, key: keyof Blocks) =>
    median((rows ?? []).map((r) => r[key]));
  const parts = builds.map((build, b) => {
    const [first, second] = [m(free[b], "first"), m(free[b], "second")];
    let part = `${build.name}: first ${fmt(first)}${x(first, n)}, second ${fmt(second)}${x(second, n)}`;
    part += `, watched first ${fmt(m(early[b], "first"))}${x(m(early[b], "first"), n)}`;
    if (hooked)
      part += `, hook armed first ${fmt(m(armed[b], "first"))}${x(m(armed[b], "first"), n)}`;
    return part;
  });
  lines.push(`  ${name.padEnd(15)} native ${fmt(n)} | ${parts.join(" | ")}`);
});
console.log(`\n${lines.join("\n")}\n`);

describe("the Lua thread's CPU", () => {
  bench(
    "printed above (fib(32), this build, one process)",
    () => {
      blocks(builds[0]?.dist ?? "", join(dir, "block-0.lua"));
    },
    { iterations: 1, time: 0 },
  );
});
