import { bench, describe } from "vitest";
import type { JsonObject } from "../src/json/value";
import { installJson } from "../src/json-lua/index";
import { installLog, installSys, installUi, installVar, readBackVar } from "../src/state/index";
import { loadLuaVmFactory } from "../src/vm/factory";
import type { LuaVm } from "../src/vm/lua-vm";
import { fmt, median, pairedRounds, timeMs } from "./support/paired";

/**
 * The state area: a var field write + read and a sys read against plain tables in the same run
 * (Lua loops, paired rounds), a table assigned to var against a plain Lua deep copy, the
 * read-back, and each installer's cost per VM against create + close alone. Prints a summary
 * measured in one run, then vitest's own tables.
 */

const factory = await loadLuaVmFactory();
factory.warmUp();

const FACTS = {
  sectionName: "Main",
  sectionCount: 3,
  execution: "run-1",
  when: Date.parse("2000-02-29T00:00:00.123Z"),
  id: "0.1",
  taskId: "0",
};

/** A var as a section might hand on: a few scalars, a list, a nested object. */
const INITIAL: JsonObject = {
  subject: "tides",
  count: 3n,
  ratio: 0.5,
  done: false,
  items: ["a", "b", "c"],
  cfg: { mode: "fast", sizes: [2, 1.5], empty: [] },
};

const SNAPSHOT: JsonObject = { selected_model: "m-1", workspace_root: null, theme: "dark" };

const N = 200_000;

const vm: LuaVm = factory.create();
installVar(vm, { initial: INITIAL });
installSys(vm, FACTS);
installJson(vm);
const setup = vm.runPrivileged({
  chunkName: "bench",
  source: `
    plain = {}
    function PLAIN_LOCAL(n) local t, y = {} for i = 1, n do t.x = i y = t.x end end
    function PLAIN_GLOBAL(n) local y for i = 1, n do plain.x = i y = plain.x end end
    function VAR_FIELD(n) local y for i = 1, n do var.x = i y = var.x end end
    function VAR_NESTED(n) var.t = {} local t, y = var.t for i = 1, n do t.x = i y = t.x end end
    function VAR_STRING(n) local y for i = 1, n do var.s = 'hello' y = var.s end end
    local facts = { when = sys.when }
    function PLAIN_READ(n) local y for i = 1, n do y = facts.when end end
    function SYS_READ(n) local y for i = 1, n do y = sys.when end end
    local function copy(t)
      local out = {}
      for k, v in next, t do if type(v) == 'table' then v = copy(v) end out[k] = v end
      return out
    end
    local small = { a = 1, b = { 1, 2, 3 }, c = { d = 'x', e = true } }
    function PLAIN_COPY(n) local y for i = 1, n do y = copy(small) end end
    function VAR_TABLE(n) for i = 1, n do var.t = small end end
    LIST = {} for i = 1, 1000 do LIST[i] = { id = i, name = 'item ' .. i } end local list = LIST
    function PLAIN_COPY_BIG(n) local y for i = 1, n do y = copy(list) end end
    function VAR_TABLE_BIG(n) for i = 1, n do var.big = list end var.big = nil end
  `,
});
if (!setup.ok) throw new Error(`bench setup failed: ${setup.message}`);

function loop(name: string, n: number): () => number {
  const source = `${name}(${n})`;
  return () =>
    timeMs(() => {
      const outcome = vm.runPrivileged({ chunkName: "bench", source });
      if (!outcome.ok) throw new Error(`${name} failed: ${outcome.message}`);
    });
}

const summary: string[] = [];
const rounds = 11;
const perOp = (ms: number, n: number): string => `${fmt((ms * 1e6) / n)} ns`;

const fieldResults = pairedRounds(
  [
    ["plain local table: t.x = i; y = t.x", loop("PLAIN_LOCAL", N)],
    ["plain global table: plain.x = i; y = plain.x", loop("PLAIN_GLOBAL", N)],
    ["var.x = i; y = var.x", loop("VAR_FIELD", N)],
    ["nested var table: t.x = i; y = t.x", loop("VAR_NESTED", N)],
    ["var.s = 'hello'; y = var.s (UTF-8 check)", loop("VAR_STRING", N)],
  ],
  rounds,
);
const readResults = pairedRounds(
  [
    ["plain table read: facts.when", loop("PLAIN_READ", N)],
    ["sys.when", loop("SYS_READ", N)],
  ],
  rounds,
);
const tableResults = pairedRounds(
  [
    ["plain Lua deep copy of a 3-table value", loop("PLAIN_COPY", 20_000)],
    ["var.t = the same value (check + copy + views)", loop("VAR_TABLE", 20_000)],
  ],
  rounds,
);
const bigResults = pairedRounds(
  [
    ["plain Lua deep copy of 1,000 records", loop("PLAIN_COPY_BIG", 20)],
    ["var.big = the same list", loop("VAR_TABLE_BIG", 20)],
  ],
  rounds,
);
summary.push(`  per operation (${N} iterations), ratio to the first line of each group:`);
for (const r of fieldResults) {
  summary.push(`    ${r.name}: ${perOp(r.medianMs, N)}, ${r.ratio.toFixed(2)}x`);
}
for (const r of readResults) {
  summary.push(`    ${r.name}: ${perOp(r.medianMs, N)}, ${r.ratio.toFixed(2)}x`);
}
for (const r of tableResults) {
  summary.push(`    ${r.name}: ${perOp(r.medianMs, 20_000)}, ${r.ratio.toFixed(2)}x`);
}
for (const r of bigResults) {
  summary.push(`    ${r.name}: ${fmt((r.medianMs * 1000) / 20)} µs, ${r.ratio.toFixed(2)}x`);
}

// The read-back: the initial var, and var with the 1,000 records stored (µs per call).
const readBackUs = (calls: number): number =>
  median(
    Array.from(
      { length: 9 },
      () =>
        (timeMs(() => {
          for (let i = 0; i < calls; i++) readBackVar(vm);
        }) *
          1000) /
        calls,
    ),
  );
readBackUs(200);
const readBackSmall = readBackUs(500);
{
  const stored = vm.runPrivileged({ chunkName: "bench", source: "var.records = LIST" });
  if (!stored.ok) throw new Error(stored.message);
}
const readBackBig = readBackUs(20);
summary.push(
  `  readBackVar: small var ${fmt(readBackSmall)} µs, with 1,000 records ${fmt(readBackBig)} µs`,
);

// Per-VM cost of each installer against create + close alone: every round measures the process
// CPU time of a batch of each variant (rotating the order); the extra cost is the median over
// rounds of (variant - create + close), so other processes on the shared machine count as little
// as possible.
const installers: readonly (readonly [string, (v: LuaVm) => void])[] = [
  ["create + close", () => undefined],
  ["installVar (empty)", (v) => installVar(v)],
  ["installVar (handed-on var, 6 fields)", (v) => installVar(v, { initial: INITIAL })],
  ["installSys", (v) => installSys(v, FACTS)],
  ["installUi (3-field snapshot)", (v) => installUi(v, SNAPSHOT)],
  ["installLog", (v) => installLog(v, { section: "Main" })],
  [
    "all four (var handed on)",
    (v) => {
      installVar(v, { initial: INITIAL });
      installSys(v, FACTS);
      installUi(v, SNAPSHOT);
      installLog(v, { section: "Main" });
    },
  ],
  [
    "all four + readBackVar",
    (v) => {
      installVar(v, { initial: INITIAL });
      installSys(v, FACTS);
      installUi(v, SNAPSHOT);
      installLog(v, { section: "Main" });
      readBackVar(v);
    },
  ],
];
const batch = 200;
const batchUs = (work: (v: LuaVm) => void): number => {
  const start = process.cpuUsage();
  for (let i = 0; i < batch; i++) {
    const v = factory.create();
    work(v);
    v.close();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / batch;
};
for (const [, work] of installers) batchUs(work);
const perRound = installers.map(() => [] as number[]);
for (let round = 0; round < 21; round++) {
  for (let k = 0; k < installers.length; k++) {
    const index = (k + round) % installers.length;
    const installer = installers[index];
    if (installer !== undefined) perRound[index]?.push(batchUs(installer[1]));
  }
}
const bareRounds = perRound[0] ?? [];
summary.push(`  per VM, CPU time (create + close: ${fmt(median(bareRounds))} µs), extra cost:`);
installers.forEach(([name], index) => {
  if (index === 0) return;
  const extra = median((perRound[index] ?? []).map((us, round) => us - (bareRounds[round] ?? us)));
  summary.push(`    ${name}: +${fmt(extra)} µs`);
});

console.log(`\n=== state (var, sys, ui, log): one run ===\n${summary.join("\n")}\n`);

describe("a var field write + read against a plain table", () => {
  bench("plain global table", () => void loop("PLAIN_GLOBAL", 10_000)());
  bench("var", () => void loop("VAR_FIELD", 10_000)());
});

describe("a sys read against a plain table", () => {
  bench("plain table", () => void loop("PLAIN_READ", 10_000)());
  bench("sys", () => void loop("SYS_READ", 10_000)());
});

describe("per-VM setup", () => {
  bench("create + close", () => factory.create().close());
  bench("create + installVar + installSys + installUi + installLog + close", () => {
    const v = factory.create();
    installVar(v, { initial: INITIAL });
    installSys(v, FACTS);
    installUi(v, SNAPSHOT);
    installLog(v, { section: "Main" });
    v.close();
  });
});
