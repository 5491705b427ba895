import { existsSync } from "node:fs";
import { bench, describe } from "vitest";
import { type LuaVmFactory, loadLuaVmFactory } from "../src/vm/factory";
import type { LuaVm, LuaVmOptions } from "../src/vm/lua-vm";
import type { HostFunction, LuaRecord } from "../src/vm/values";
import { AllocatorBench, type AllocatorKind } from "./support/allocators";
import { findNativeLua, runNative } from "./support/native-lua";
import { fmt, median, pairedRounds, timeMs, timeMsAsync } from "./support/paired";
import { watchdogRunning } from "./support/watchdog";
import { CPU_WORKLOADS } from "./support/workloads";

/**
 * Benchmarks of the VM core. Before vitest's own tables, this file measures everything in one
 * run (paired rounds, medians) and prints a summary with the ratios the design notes quote:
 * create+fill+close, CPU-bound Lua with and without the cancellation hook and against native
 * lua5.4 (when on the PATH), one suspension round trip, and the memory-limit allocator options.
 *
 * Host-call figures are also taken through dist/ (the bundle `pnpm build` makes, as published)
 * when it exists: vitest runs src/ through Vite's module transform, which turns every
 * cross-module call into a property read on an import object and costs the hot paths 30–80 %.
 */

const factory = await loadLuaVmFactory();
factory.warmUp();

/** About 20 host functions shaped like the Engine's globals: plain, async, and in tables. */
function engineLikeGlobals(): LuaRecord {
  const sync: HostFunction = () => undefined;
  const async: HostFunction = async () => undefined;
  return {
    log: sync,
    jump: sync,
    call: async,
    require: async,
    store: { read: async, write: async, glob: async, exists: async },
    tools: { call: async, offer: sync, get: sync, calls: sync },
    models: { infer: async, get: sync, use: sync },
    tasks: { spawn: async, join: async, fanout: async },
    prompt: { section: sync, list: sync },
    args: "the argument string",
  };
}

const globals = engineLikeGlobals();
const summary: string[] = [];

// 1. VM lifecycle --------------------------------------------------------------------------
function createFillClose(): void {
  const vm = factory.create();
  vm.setGlobals(globals);
  vm.close();
}

function lifecycleMedianUs(work: () => void, batch: number, batches: number): number {
  for (let i = 0; i < batch; i++) work();
  const perVm: number[] = [];
  for (let b = 0; b < batches; b++)
    perVm.push(
      (timeMs(() => {
        for (let i = 0; i < batch; i++) work();
      }) *
        1000) /
        batch,
    );
  return median(perVm);
}

const createCloseUs = lifecycleMedianUs(() => factory.create().close(), 200, 15);
const createFillCloseUs = lifecycleMedianUs(createFillClose, 200, 15);
const sectionUs: number[] = [];
for (let b = 0; b < 15; b++) {
  const ms = await timeMsAsync(async () => {
    for (let i = 0; i < 100; i++) {
      const vm = factory.create();
      vm.setGlobals(globals);
      await vm.runBlock({
        source: "local n = 0 for i = 1, 100 do n = n + i end return n",
        chunkName: "line 1",
      });
      vm.close();
    }
  });
  sectionUs.push((ms * 1000) / 100);
}
summary.push(
  "VM lifecycle (median µs per VM, batches of 200):",
  `  create + close                         ${fmt(createCloseUs)} µs  (${Math.round(1e6 / createCloseUs)} VMs/s)`,
  `  create + 20 host functions + close     ${fmt(createFillCloseUs)} µs  (${Math.round(1e6 / createFillCloseUs)} VMs/s; goal <= 100 µs)`,
  `  ... + run a 100-iteration block        ${fmt(median(sectionUs))} µs`,
);

// 2. CPU-bound Lua: hook armed or not, and native ------------------------------------------
function cpuRun(source: string, options: LuaVmOptions): () => number {
  return () => {
    const vm = factory.create(options);
    try {
      return timeMs(() => {
        const outcome = vm.runPrivileged({ source, chunkName: "bench" });
        if (!outcome.ok) throw new Error(outcome.message);
      });
    } finally {
      vm.close();
    }
  };
}

const flag = new Int32Array(new SharedArrayBuffer(4));
await watchdogRunning(factory);
const native = findNativeLua();
summary.push(
  "",
  "CPU-bound Lua (median ms per run; ratio = paired median vs 'no hook'):",
  "  hook-free = a cancel flag, the watchdog arms the hook only when it is set;",
  "  polled = an in-thread shouldCancel (a deadline) keeps the count hook armed (the fallback design)",
  native.ok ? `  native: ${native.version}` : `  native lua5.4 skipped: ${native.reason}`,
);
const never = (): boolean => false;
for (const workload of CPU_WORKLOADS) {
  const results = pairedRounds(
    [
      ["no hook", cpuRun(workload.source, {})],
      ["hook-free (flag)", cpuRun(workload.source, { cancelFlag: flag })],
      ["hook /1000 (polled)", cpuRun(workload.source, { cancelFlag: flag, shouldCancel: never })],
      [
        "hook /10000 (polled)",
        cpuRun(workload.source, {
          cancelFlag: flag,
          shouldCancel: never,
          hookInstructions: 10_000,
        }),
      ],
    ],
    5,
  );
  const cells = results.map((r) => `${r.name} ${fmt(r.medianMs)} ms (${r.ratio.toFixed(2)}x)`);
  let nativeCell = "";
  if (native.ok) {
    const nativeMs = median(runNative(workload.source, 5));
    const ratio = (i: number): string =>
      ((results[i]?.medianMs ?? Number.NaN) / nativeMs).toFixed(2);
    nativeCell = `; native ${fmt(nativeMs)} ms -> no hook ${ratio(0)}x, hook-free ${ratio(1)}x, polled hook ${ratio(2)}x native`;
  }
  summary.push(`  ${workload.name}: ${cells.join(", ")}${nativeCell}`);
}

// 3. Suspension round trip and sync calls ---------------------------------------------------
async function suspensionUs(vms: LuaVmFactory, count: number): Promise<number> {
  const vm = vms.create();
  vm.setGlobalFunction("tick", () => Promise.resolve(undefined));
  try {
    const ms = await timeMsAsync(() =>
      vm.runBlock({ source: `for i = 1, ${count} do tick() end`, chunkName: "bench" }),
    );
    return (ms * 1000) / count;
  } finally {
    vm.close();
  }
}

async function syncCallNs(
  vms: LuaVmFactory,
  count: number,
): Promise<{ noop: number; echo: number }> {
  const vm = vms.create();
  vm.setGlobalFunction("noop", () => undefined);
  vm.setGlobalFunction("echo", (call) => [call.text(1)]);
  try {
    const empty = await timeMsAsync(() =>
      vm.runBlock({ source: `for i = 1, ${count} do end`, chunkName: "bench" }),
    );
    const noop = await timeMsAsync(() =>
      vm.runBlock({ source: `for i = 1, ${count} do noop() end`, chunkName: "bench" }),
    );
    const echo = await timeMsAsync(() =>
      vm.runBlock({ source: `for i = 1, ${count} do echo('hello') end`, chunkName: "bench" }),
    );
    return { noop: ((noop - empty) * 1e6) / count, echo: ((echo - empty) * 1e6) / count };
  } finally {
    vm.close();
  }
}

async function hostCallFigures(label: string, vms: LuaVmFactory): Promise<void> {
  await suspensionUs(vms, 2000);
  const suspensions: number[] = [];
  for (let r = 0; r < 7; r++) suspensions.push(await suspensionUs(vms, 10_000));
  await syncCallNs(vms, 100_000);
  const noopCalls: number[] = [];
  const echoCalls: number[] = [];
  for (let r = 0; r < 5; r++) {
    const { noop, echo } = await syncCallNs(vms, 200_000);
    noopCalls.push(noop);
    echoCalls.push(echo);
  }
  const fill = lifecycleMedianUs(
    () => {
      const vm = vms.create();
      vm.setGlobals(globals);
      vm.close();
    },
    200,
    15,
  );
  summary.push(
    `  ${label}: suspension round trip ${fmt(median(suspensions))} µs (goal <= 5 µs); ` +
      `sync call ${fmt(median(noopCalls))} ns noop, ${fmt(median(echoCalls))} ns string echo; ` +
      `create + 20 functions + close ${fmt(fill)} µs`,
  );
}

summary.push("", "Host calls (medians; a suspension = host Promise, yield, resume):");
await hostCallFigures("src via vitest", factory);
const distUrl = new URL("../dist/index.js", import.meta.url);
if (existsSync(distUrl)) {
  const dist = (await import(distUrl.href)) as typeof import("../src/index");
  const distFactory = await dist.loadLuaVmFactory();
  distFactory.warmUp();
  await hostCallFigures("dist bundle     ", distFactory);
} else {
  summary.push("  dist bundle skipped: dist/index.js is missing (run pnpm build first)");
}

// 4. Memory limit: allocator options -------------------------------------------------------
const allocators = await AllocatorBench.create();
const kinds: AllocatorKind[] = [
  "luaL_newstate (no limit)",
  "JS allocator (addFunction)",
  "wasm limit allocator",
];
summary.push("", "Memory-limit allocators (median ms per run; ratio vs no limit):");
const allocationWorkloads = [
  ...CPU_WORKLOADS.filter((w) => w.name !== "fib"),
  {
    name: "tiny tables (pure allocation)",
    source: "local n = 0 for i = 1, 1000000 do local t = { i } n = n + t[1] end return n",
  },
];
for (const workload of allocationWorkloads) {
  const results = pairedRounds(
    kinds.map((kind) => [kind, () => allocators.runOnce(kind, workload.source)] as const),
    7,
  );
  summary.push(
    `  ${workload.name}: ${results.map((r) => `${r.name} ${fmt(r.medianMs)} ms (${r.ratio.toFixed(2)}x)`).join(", ")}`,
  );
}

console.log(
  `\n=== @runvil/lua VM core: one run, ratios from paired rounds ===\n${summary.join("\n")}\n`,
);

// vitest's own tables ----------------------------------------------------------------------
describe("VM lifecycle", () => {
  bench("create + close", () => {
    factory.create().close();
  });
  bench("create + 20 host functions + close", createFillClose);
});

describe("suspension", () => {
  let vm: LuaVm | undefined;
  bench(
    "block with one suspension (runBlock + 1 host Promise)",
    async () => {
      await vm?.runBlock({ source: "tick()", chunkName: "bench" });
    },
    {
      setup: () => {
        vm = factory.create();
        vm.setGlobalFunction("tick", () => Promise.resolve(undefined));
      },
      teardown: () => vm?.close(),
    },
  );
});

describe("fib(27)", () => {
  const fib = CPU_WORKLOADS[0]?.source ?? "";
  bench(
    "no hook",
    () => {
      cpuRun(fib, {})();
    },
    { iterations: 10, time: 0 },
  );
  bench(
    "hook-free (cancel flag, watchdog)",
    () => {
      cpuRun(fib, { cancelFlag: flag })();
    },
    { iterations: 10, time: 0 },
  );
  bench(
    "cancellation hook armed (polled shouldCancel)",
    () => {
      cpuRun(fib, { cancelFlag: flag, shouldCancel: never })();
    },
    { iterations: 10, time: 0 },
  );
});
