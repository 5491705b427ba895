import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";
import {
  hasNativeLua,
  luaFile,
  median,
  type ProcessTime,
  promptFile,
  timeProcess,
  WORKLOADS,
} from "./support/cpu-workloads";

/**
 * The V8 wasm settings of the run worker, side by side in one run (lua-vm.md "Tier-up"): for
 * each, the cold start of a one-section prompt and the four CPU-bound workloads net of it, with
 * native lua5.4 and `node -e 0` measured in the same interleaved rounds (medians of 5; wall and
 * CPU of all threads). A setting is given as `node` options before dist/bin.js: V8 flags are
 * process-wide, the worker inherits them, and the worker's loader leaves a tiering budget given
 * there as it is. A variant with options keeps its own code cache file (written at its first
 * run, with the top level only), so "50M (as an option)" is the fair reference for the other
 * options, and "shipped" uses the cache the build wrote. Needs the built dist/; takes minutes.
 */

const ROUNDS = 5;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "runvil-wasm-tiering-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Variant {
  readonly name: string;
  readonly options: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

const VARIANTS: readonly Variant[] = [
  { name: "shipped (budget 50M)", options: [] },
  {
    name: "shipped, hook armed (no shared mem)",
    options: [],
    env: { ...process.env, RUNVIL_LUA_SHARED_MEMORY: "0" },
  },
  { name: "50M (as an option)", options: ["--wasm-tiering-budget=50000000"] },
  { name: "V8 default budget 1.8M", options: ["--wasm-tiering-budget=1800000"] },
  { name: "small budget 200k", options: ["--wasm-tiering-budget=200000"] },
  { name: "--no-wasm-dynamic-tiering", options: ["--no-wasm-dynamic-tiering"] },
  { name: "--no-liftoff (lazy TurboFan)", options: ["--no-liftoff"] },
  {
    name: "--no-liftoff --no-wasm-lazy-compilation",
    options: ["--no-liftoff", "--no-wasm-lazy-compilation"],
  },
  { name: "--no-wasm-lazy-compilation", options: ["--no-wasm-lazy-compilation"] },
];

const emptyPrompt = promptFile(dir, "empty", "return 0");
const emptyLua = luaFile(dir, "empty", "return 0");
const workloads = WORKLOADS.map(({ name, lua }) => ({
  name,
  prompt: promptFile(dir, name, lua),
  script: luaFile(dir, name, lua),
}));
const runOf = (variant: Variant, prompt: string) => () =>
  timeProcess(
    process.execPath,
    [...variant.options, bin, "run", prompt, "--no-record"],
    variant.env,
  );

const cold = VARIANTS.map(() => [] as ProcessTime[]);
const nets = VARIANTS.map(() => workloads.map(() => [] as ProcessTime[]));
const nativeNets = workloads.map(() => [] as ProcessTime[]);
const nodeOnly: ProcessTime[] = [];
for (const variant of VARIANTS) runOf(variant, emptyPrompt)(); // each variant's code cache
for (let round = 0; round < ROUNDS; round++) {
  nodeOnly.push(timeProcess(process.execPath, ["-e", "0"]));
  VARIANTS.forEach((variant, v) => {
    const base = runOf(variant, emptyPrompt)();
    cold[v]?.push(base);
    workloads.forEach((workload, w) => {
      const t = runOf(variant, workload.prompt)();
      nets[v]?.[w]?.push({ wall: t.wall - base.wall, cpu: t.cpu - base.cpu });
    });
  });
  if (hasNativeLua) {
    const base = timeProcess("lua5.4", [emptyLua]);
    workloads.forEach((workload, w) => {
      const t = timeProcess("lua5.4", [workload.script]);
      nativeNets[w]?.push({ wall: t.wall - base.wall, cpu: t.cpu - base.cpu });
    });
  }
}

const m = (rows: readonly ProcessTime[] | undefined, key: keyof ProcessTime): number =>
  median((rows ?? []).map((row) => row[key]));
const fmt = (n: number): string => (Number.isNaN(n) ? "-" : n.toFixed(0));
const x = (a: number, b: number): string => (Number.isNaN(a / b) ? "-" : `${(a / b).toFixed(2)}x`);
const nodeWall = m(nodeOnly, "wall");
const nodeCpu = m(nodeOnly, "cpu");
const lines = [
  `V8 wasm settings of the run worker, medians of ${ROUNDS} interleaved rounds (wall / CPU ms):`,
  `  node -e 0 ${fmt(nodeWall)} / ${fmt(nodeCpu)}; native lua5.4 net: ${workloads
    .map((w, i) => `${w.name} ${fmt(m(nativeNets[i], "wall"))} / ${fmt(m(nativeNets[i], "cpu"))}`)
    .join(", ")}`,
];
VARIANTS.forEach((variant, v) => {
  const c = cold[v];
  const parts = workloads.map((w, i) => {
    const row = nets[v]?.[i];
    return `${w.name} ${x(m(row, "wall"), m(nativeNets[i], "wall"))} / ${x(m(row, "cpu"), m(nativeNets[i], "cpu"))}`;
  });
  lines.push(
    `  ${variant.name.padEnd(40)} cold ${fmt(m(c, "wall"))} / ${fmt(m(c, "cpu"))} ms ` +
      `(${x(m(c, "wall"), nodeWall)} / ${x(m(c, "cpu"), nodeCpu)} node -e 0); × native: ${parts.join(", ")}`,
  );
});
console.log(`\n${lines.join("\n")}\n`);

describe("the wasm settings matrix", () => {
  bench(
    "printed above (one-section prompt, shipped)",
    () => {
      runOf(VARIANTS[0] as Variant, emptyPrompt)();
    },
    { iterations: 1, time: 0 },
  );
});
