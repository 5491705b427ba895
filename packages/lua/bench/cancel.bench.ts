import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { bench, describe } from "vitest";
import { loadLuaVmFactory } from "../src/vm/factory";
import type { LuaVmOptions } from "../src/vm/lua-vm";
import { fmt, median } from "./support/paired";
import { watchdogRunning } from "./support/watchdog";

/**
 * Hook-free cancellation (docs/design/lua-vm.md): how long a spinning block takes to stop after
 * another thread sets its cancel flag, hook-free (the watchdog arms the hook) and with the count
 * hook polled all along (the fallback); and what the shared memory and the watchdog thread cost
 * at start-up and in memory (child processes over dist/, with and without
 * RUNVIL_LUA_SHARED_MEMORY=0). Prints a summary; the CPU-bound ratios are in vm.bench.ts.
 */

const factory = await loadLuaVmFactory();
factory.warmUp();
await watchdogRunning(factory);
const summary: string[] = [];

// One thread sets the flag 20 ms after each round's block has started spinning, and records
// when (performance.timeOrigin + now(), in ms, shared as a Float64).
const control = new Int32Array(new SharedArrayBuffer(16));
const setAt = new Float64Array(new SharedArrayBuffer(8));
const setter = new Worker(
  `const { workerData } = require("node:worker_threads");
   const { control, setAt } = workerData;
   for (let round = 1; ; round++) {
     Atomics.wait(control, 1, round - 1);
     Atomics.wait(control, 3, 0, 20);
     setAt[0] = performance.timeOrigin + performance.now();
     Atomics.store(control, 0, 1);
   }`,
  { eval: true, workerData: { control, setAt } },
);
setter.unref();
let round = 0;

/** Milliseconds from the flag's setting to the block's end, for one spinning block. */
async function latencyMs(source: string, options: LuaVmOptions): Promise<number> {
  Atomics.store(control, 0, 0);
  const vm = factory.create(options);
  vm.setGlobalFunction("started", () => {
    Atomics.store(control, 1, ++round);
    Atomics.notify(control, 1);
    return undefined;
  });
  try {
    const outcome = await vm.runBlock({ source, chunkName: "bench" });
    const end = performance.timeOrigin + performance.now();
    if (outcome.ok || outcome.reason !== "cancelled") throw new Error("the spin was not cancelled");
    return end - (setAt[0] ?? 0);
  } finally {
    vm.close();
  }
}

const SPINS: readonly [string, string][] = [
  ["while true do end", "started() while true do end"],
  ["spin inside pcall", "started() pcall(function() while true do end end)"],
  [
    "spin in a gsub callback",
    "started() string.gsub('abc', '%w', function() while true do end end)",
  ],
  [
    "spin in a sort comparator",
    "started() table.sort({3, 1, 2}, function() while true do end end)",
  ],
];
const flag = new Int32Array(control.buffer, 0, 1);
summary.push("Cancellation latency (flag set by another thread -> block ended; median of 5 ms):");
for (const [name, source] of SPINS) {
  const free: number[] = [];
  const polled: number[] = [];
  for (let i = 0; i < 5; i++) {
    free.push(await latencyMs(source, { cancelFlag: flag }));
    polled.push(await latencyMs(source, { cancelFlag: flag, shouldCancel: () => false }));
  }
  summary.push(
    `  ${name.padEnd(26)} hook-free ${fmt(median(free))} ms (max ${fmt(Math.max(...free))}), ` +
      `polled hook ${fmt(median(polled))} ms (max ${fmt(Math.max(...polled))}); goal <= 100 ms`,
  );
}

// Start-up and memory, in fresh processes over dist/ ----------------------------------------
const distFile = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const CHILD = `
const t0 = performance.now();
const lua = await import(process.argv[1]);
const factory = await lua.loadLuaVmFactory();
const loadMs = performance.now() - t0;
const rssLoaded = process.memoryUsage().rss;
factory.startCancelWatchdog();
const vm = factory.create({ cancelFlag: new Int32Array(new SharedArrayBuffer(4)) });
await new Promise((r) => setTimeout(r, 300));
vm.close();
console.log(JSON.stringify({ loadMs, rssLoaded, rssWatching: process.memoryUsage().rss }));
`;

interface ChildFigures {
  loadMs: number;
  rssLoaded: number;
  rssWatching: number;
}

function child(shared: boolean): ChildFigures {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, distFile], {
    env: { ...process.env, RUNVIL_LUA_SHARED_MEMORY: shared ? "1" : "0" },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as ChildFigures;
}

if (existsSync(distFile)) {
  const runs: Record<"shared" | "plain", ChildFigures[]> = { shared: [], plain: [] };
  for (let i = 0; i < 5; i++) {
    runs.shared.push(child(true));
    runs.plain.push(child(false));
  }
  const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  const row = (label: string, figures: ChildFigures[]): string =>
    `  ${label}: load ${fmt(median(figures.map((f) => f.loadMs)))} ms, RSS ${mb(median(figures.map((f) => f.rssLoaded)))} MiB loaded, ` +
    `${mb(median(figures.map((f) => f.rssWatching)))} MiB with a flag-cancellable VM open 300 ms`;
  summary.push(
    "",
    "Start-up and memory (fresh process over dist/, medians of 5):",
    row("shared memory + watchdog", runs.shared),
    row("RUNVIL_LUA_SHARED_MEMORY=0 (fallback)", runs.plain),
  );
} else {
  summary.push("", "Start-up and memory skipped: dist/index.js is missing (run pnpm build first)");
}

console.log(`\n${summary.join("\n")}\n`);

describe("a spin stopped by the cancel flag", () => {
  bench(
    "hook-free (watchdog)",
    async () => {
      await latencyMs("started() while true do end", { cancelFlag: flag });
    },
    { iterations: 5, time: 0 },
  );
});
