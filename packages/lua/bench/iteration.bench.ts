import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "tsup";
import { bench, describe } from "vitest";
import { fmt, median, pairedRounds, timeMs } from "./support/paired";

/**
 * Deterministic pairs and next against stock Lua's raw next (the original, kept in the private
 * table), in the same VM and the same run, over tables of 1e3 and 1e5 keys: all string keys,
 * and half array / half string keys. Before vitest's own table it prints a summary of paired
 * rounds (medians of per-round ratios):
 * - pairs with a kept order (the table walked before and unchanged, the usual repeated walk);
 * - pairs with the order rebuilt (a key added and removed before each walk, which drops the kept
 *   order), against a raw walk after the same touch;
 * - pairs' first walk of a table just built (nothing kept), against a raw walk of such a table;
 * - next (`for k, v in next, t`);
 * - design (a): deterministic pairs in Lua, keys bucketed by type and sorted with table.sort;
 * - enumeration alone: lua_next through the exports from JS against reading the table's memory;
 * - VM setup: create + installIteration + close against create + close.
 *
 * The code measured is a bundle made here with tsup from src (as `pnpm build` bundles the
 * package): vitest runs src/ through Vite's module transform, which reads every imported binding
 * through a getter and makes this area's JS loops about 10x slower than published code.
 */

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = `${root}node_modules/.cache/runvil-iteration-bench`;
mkdirSync(outDir, { recursive: true });
writeFileSync(
  `${outDir}/entry.ts`,
  `export { loadLuaVmFactory } from "${root}src/vm/factory";
export { installIteration } from "${root}src/iteration/install";
import { VmHandle } from "${root}src/vm/lua-vm";
import { KeyLister } from "${root}src/iteration/key-list";
import { memoryViews } from "${root}src/iteration/memory-views";
import type { LuaVm } from "${root}src/vm/lua-vm";

/** Globals probe_api(t) and probe_mem(t): enumerate t's keys (type + string bytes) from JS. */
export function installProbes(vm: LuaVm): void {
  const state = VmHandle.stateOf(vm);
  const { kernel } = state;
  const { x } = kernel;
  const lister = new KeyLister();
  const events = new Int32Array(6);
  const api = (L: number): number => {
    let count = 0;
    x.lua_pushnil(L);
    while (x.lua_next(L, 1) !== 0) {
      const type = x.lua_type(L, -2);
      if (type === 4) kernel.readBytes(L, -2);
      else if (type === 3) x.lua_tonumberx(L, -2, kernel.intCell);
      count++;
      x.lua_settop(L, -2);
    }
    return 0;
  };
  const mem = (L: number): number => {
    lister.scan(memoryViews(kernel.heap), x.lua_topointer(L, 1), 0, events);
    return 0;
  };
  state.hostOp(() => {
    for (const [name, fn] of [["probe_api", api], ["probe_mem", mem]] as const) {
      x.lua_rawgeti(state.L, -1001000, 2n);
      kernel.pushText(state.L, name);
      x.lua_pushlightuserdata(state.L, state.functions.add({ kind: "raw", name, fn }));
      x.lua_pushcclosure(state.L, kernel.dispatcher, 1);
      x.lua_rawset(state.L, -3);
      x.lua_settop(state.L, -2);
    }
  });
}
`,
);
await build({
  entry: { entry: `${outDir}/entry.ts` },
  outDir,
  format: ["esm"],
  target: "node20",
  config: false,
  dts: false,
  silent: true,
  external: ["wasmoon"],
  loader: { ".lua": "text" },
});
const bundle = (await import(pathToFileURL(`${outDir}/entry.js`).href)) as {
  loadLuaVmFactory: typeof import("../src/vm/factory").loadLuaVmFactory;
  installIteration: typeof import("../src/iteration/install").installIteration;
  installProbes: (vm: import("../src/vm/lua-vm").LuaVm) => void;
};

const factory = await bundle.loadLuaVmFactory();
factory.warmUp();
const vm = factory.create({ luaMemoryBytes: 512 * 1024 * 1024 });
bundle.installIteration(vm);
bundle.installProbes(vm);
vm.setGlobalFunction("clock", () => [performance.now()]);

const SETUP = `
local P = ...
local rawnext, rawget, rawlen, sort, type, mtype = P.next, P.rawget, P.rawlen, table.sort, type, math.type

function make(n, mixed)
  local t = {}
  local strings = mixed and n - n // 2 or n
  if mixed then for i = 1, n // 2 do t[i] = i end end
  for i = 1, strings do t['key' .. i] = i end
  return t
end

-- Design (a): the array part by index, then booleans, numbers and strings bucketed by type,
-- each sorted with table.sort's built-in <, then every other key in raw order.
local function lua_pairs(t)
  local border = rawlen(t)
  local bools, nums, strs, rest = {}, {}, {}, {}
  for k in rawnext, t do
    local kind = type(k)
    if kind == 'string' then strs[#strs + 1] = k
    elseif kind == 'number' then
      if not (mtype(k) == 'integer' and k >= 1 and k <= border) then nums[#nums + 1] = k end
    elseif kind == 'boolean' then bools[#bools + 1] = k
    else rest[#rest + 1] = k end
  end
  sort(nums) sort(strs)
  local keys = {}
  if rawget(t, false) ~= nil then keys[#keys + 1] = false end
  if rawget(t, true) ~= nil then keys[#keys + 1] = true end
  for _, group in ipairs({ nums, strs, rest }) do
    for i = 1, #group do keys[#keys + 1] = group[i] end
  end
  local i, j, n = 0, 0, #keys
  return function()
    while i < border do
      i = i + 1
      local v = rawget(t, i)
      if v ~= nil then return i, v end
    end
    while j < n do
      j = j + 1
      local k = keys[j]
      local v = rawget(t, k)
      if v ~= nil then return k, v end
    end
    return nil, nil
  end, t, nil
end

local walks = {
  raw = function(t) local n = 0 for k, v in rawnext, t do n = n + 1 end return n end,
  pairs = function(t) local n = 0 for k, v in pairs(t) do n = n + 1 end return n end,
  raw_touched = function(t) t.__touch = true t.__touch = nil local n = 0 for k, v in rawnext, t do n = n + 1 end return n end,
  pairs_touched = function(t) t.__touch = true t.__touch = nil local n = 0 for k, v in pairs(t) do n = n + 1 end return n end,
  next = function(t) local n = 0 for k, v in next, t do n = n + 1 end return n end,
  lua_pairs = function(t) local n = 0 for k, v in lua_pairs(t) do n = n + 1 end return n end,
  probe_api = function(t) probe_api(t) end,
  probe_mem = function(t) probe_mem(t) end,
}

-- Runs walk 'name' over the table T 'reps' times; returns the milliseconds it took.
function timed(name, reps)
  local walk, t = walks[name], T
  local t0 = clock()
  for _ = 1, reps do walk(t) end
  return clock() - t0
end

-- Times walk 'name' over 'reps' tables made afresh like T (only the walks are timed).
function timed_fresh(name, reps)
  local walk, total = walks[name], 0
  for _ = 1, reps do
    local t = make(N, MIXED)
    local t0 = clock()
    walk(t)
    total = total + (clock() - t0)
  end
  return total
end
`;

const setup = vm.runPrivileged({ source: SETUP, chunkName: "=bench" });
if (!setup.ok) throw new Error(setup.message);

/** A variant that times `reps` runs of walk `name` inside Lua (over T, or over fresh tables). */
function walk(name: string, reps: number, fresh = false): () => number {
  const source = `return ${fresh ? "timed_fresh" : "timed"}("${name}", ${reps})`;
  return () => {
    const outcome = vm.runPrivileged({ source, chunkName: "=b" });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.values[0] as number;
  };
}

const summary: string[] = [
  "Deterministic iteration vs raw next (paired rounds; ratio = median of per-round ratios):",
];
const shapes = [
  { n: 1_000, mixed: false, reps: 10, rounds: 31 },
  { n: 1_000, mixed: true, reps: 10, rounds: 31 },
  { n: 100_000, mixed: false, reps: 1, rounds: 9 },
  { n: 100_000, mixed: true, reps: 1, rounds: 9 },
];
for (const { n, mixed, reps, rounds } of shapes) {
  const made = vm.runPrivileged({
    source: `N, MIXED = ${n}, ${mixed} T = make(N, MIXED) return 0`,
    chunkName: "=m",
  });
  if (!made.ok) throw new Error(made.message);
  const label = `${n.toExponential(0)} keys, ${mixed ? "half array / half strings" : "strings"}`;
  const plain = pairedRounds(
    [
      ["raw next", walk("raw", reps)],
      ["pairs, kept order", walk("pairs", reps)],
      ["next", walk("next", reps)],
      ["design (a) Lua table.sort", walk("lua_pairs", reps)],
    ],
    rounds,
  );
  const touched = pairedRounds(
    [
      ["raw next after a touch", walk("raw_touched", reps)],
      ["pairs, order rebuilt", walk("pairs_touched", reps)],
    ],
    rounds,
  );
  const fresh = pairedRounds(
    [
      ["raw next, new table", walk("raw", Math.min(reps, 10), true)],
      ["pairs, first walk", walk("pairs", Math.min(reps, 10), true)],
    ],
    rounds,
  );
  const probes = pairedRounds(
    [
      ["lua_next from JS", walk("probe_api", reps)],
      ["memory scan", walk("probe_mem", reps)],
    ],
    rounds,
  );
  const per = (ms: number) => `${fmt((ms * 1000) / reps)} µs`;
  const perFresh = (ms: number) => `${fmt((ms * 1000) / Math.min(reps, 10))} µs`;
  summary.push(`  ${label} (raw next ${per(plain[0]?.medianMs ?? 0)} per walk):`);
  for (const r of [...plain.slice(1), ...touched.slice(1)]) {
    summary.push(
      `    ${r.name.padEnd(28)} ${per(r.medianMs).padStart(10)}  ${r.ratio.toFixed(2)}x`,
    );
  }
  for (const r of fresh.slice(1)) {
    summary.push(
      `    ${r.name.padEnd(28)} ${perFresh(r.medianMs).padStart(10)}  ${r.ratio.toFixed(2)}x`,
    );
  }
  summary.push(
    `    (rebuilt: against raw next after the same touch, ${per(touched[0]?.medianMs ?? 0)}; first walk: against raw next over a new table, ${perFresh(fresh[0]?.medianMs ?? 0)})`,
    `    enumeration only: lua_next from JS ${per(probes[0]?.medianMs ?? 0)}, memory scan ${per(probes[1]?.medianMs ?? 0)} (${((probes[0]?.medianMs ?? 0) / (probes[1]?.medianMs ?? 1)).toFixed(1)}x faster)`,
  );
}

// VM setup cost ---------------------------------------------------------------------------------
function setupUs(install: boolean): number {
  const batch = 200;
  const perVm: number[] = [];
  for (let b = 0; b < 11; b++) {
    const ms = timeMs(() => {
      for (let i = 0; i < batch; i++) {
        const each = factory.create();
        if (install) bundle.installIteration(each);
        each.close();
      }
    });
    perVm.push((ms * 1000) / batch);
  }
  return median(perVm);
}
setupUs(true);
const bare = setupUs(false);
const installed = setupUs(true);
summary.push(
  "",
  `VM setup: create + close ${fmt(bare)} µs, + installIteration ${fmt(installed)} µs (installIteration ${fmt(installed - bare)} µs)`,
);
console.log(summary.join("\n"));

describe("iteration", () => {
  bench("pairs over 1e3 string keys (kept order)", () => {
    vm.runPrivileged({
      source: "T1 = T1 or make(1000, false) for k, v in pairs(T1) do end",
      chunkName: "=b",
    });
  });
  bench("raw next over 1e3 string keys", () => {
    vm.runPrivileged({
      source: "T1 = T1 or make(1000, false) for k, v in (...).next, T1 do end",
      chunkName: "=b",
    });
  });
});
