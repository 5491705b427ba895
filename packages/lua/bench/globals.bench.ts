import { bench, describe } from "vitest";
import { installGlobalGuard } from "../src/globals/install";
import { loadLuaRuntime } from "../src/runtime";
import { loadLuaVmFactory } from "../src/vm/factory";
import type { LuaVm } from "../src/vm/lua-vm";
import { fmt, median, pairedRounds } from "./support/paired";

/**
 * Benchmarks of the globals area, measured in one run and printed as a summary before vitest's
 * own table: the per-VM cost of installGlobalGuard, and global reads and writes through the
 * Engine guard on _G (with and without an author metatable, and served names) against a plain
 * table read and write in the same paired rounds. Each figure is ns per operation: a loop of N
 * operations minus the same loop empty, run as Engine Lua (runPrivileged, compiled once).
 * Times are the process's CPU time (process.cpuUsage), which moves less than wall time on the
 * shared build machine.
 */

/** CPU milliseconds `work` takes once. */
function timeMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const factory = await loadLuaVmFactory();
factory.warmUp();
const runtime = await loadLuaRuntime();
const summary: string[] = [];
const N = 200_000;

// 1. Install cost ---------------------------------------------------------------------------
function batchOf(count: number, work: () => void): void {
  for (let i = 0; i < count; i++) work();
}
const createClose = (): void => factory.create().close();
const createInstallClose = (): void => {
  const vm = factory.create();
  installGlobalGuard(vm);
  vm.close();
};
/** Paired rounds of 500 VMs each; per-round differences, so load shifts cancel out. */
const plainUs: number[] = [];
const guardedUs: number[] = [];
const differenceUs: number[] = [];
batchOf(500, createInstallClose);
for (let round = 0; round < 15; round++) {
  const order =
    round % 2 === 0 ? [createClose, createInstallClose] : [createInstallClose, createClose];
  const [first, second] = order.map((work) => (timeMs(() => batchOf(500, work)) * 1000) / 500);
  const plain = round % 2 === 0 ? (first ?? 0) : (second ?? 0);
  const guarded = round % 2 === 0 ? (second ?? 0) : (first ?? 0);
  plainUs.push(plain);
  guardedUs.push(guarded);
  differenceUs.push(guarded - plain);
}
summary.push(
  "installGlobalGuard (median CPU µs per VM, 15 paired rounds of 500 VMs):",
  `  create + close                        ${fmt(median(plainUs))} µs`,
  `  create + installGlobalGuard + close   ${fmt(median(guardedUs))} µs -> install ${fmt(median(differenceUs))} µs (median of per-round differences)`,
);

// 2. Global reads and writes ---------------------------------------------------------------
/** A VM prepared once: `guard` installs the guard, `setup` is Engine Lua run once. */
function prepare(guard: boolean, setup: string): LuaVm {
  const vm = factory.create();
  if (guard) {
    const g = installGlobalGuard(vm);
    g.serve("js_served", { read: () => ["value"] });
  }
  const outcome = vm.runPrivileged({ source: setup, chunkName: "=setup" });
  if (!outcome.ok) throw new Error(outcome.message);
  return vm;
}

interface Variant {
  readonly name: string;
  readonly vm: LuaVm;
  readonly bytecode: Uint8Array;
}

const vms: LuaVm[] = [];
function variant(name: string, guard: boolean, setup: string, op: string): Variant {
  const vm = prepare(guard, setup);
  vms.push(vm);
  const source = `local N = select(2, ...)\nlocal t = { x = 1 }\nfor i = 1, N do ${op} end`;
  const compiled = runtime.compile(source, "=bench");
  if (!compiled.ok) throw new Error(compiled.diagnostic);
  return { name, vm, bytecode: compiled.bytecode };
}

const LUA_SERVED =
  "(...).global_guard.serve('lua_served', function() return 'value' end, function() end)";
const variants: Variant[] = [
  variant("empty loop", true, "", ""),
  variant("plain table read  t.x", true, "", "local v = t.x"),
  variant("plain table write t.x = i", true, "", "t.x = i"),
  variant("global read, existing (raw hit)", true, "existing = 1", "local v = existing"),
  variant("global write, existing (raw hit)", true, "existing = 1", "existing = i"),
  variant("missing global read, no guard (stock)", false, "", "local v = missing"),
  variant("missing global read, guard, no author", true, "", "local v = missing"),
  variant(
    "missing global read, author __index table",
    true,
    "setmetatable(_G, { __index = { missing = 1 } })",
    "local v = missing",
  ),
  variant(
    "missing global read, author __index function",
    true,
    "setmetatable(_G, { __index = function(_, k) return 1 end })",
    "local v = missing",
  ),
  variant("served read, Lua handler", true, LUA_SERVED, "local v = lua_served"),
  variant("served read, JS host handler", true, "", "local v = js_served"),
  variant("new global write, no guard (stock)", false, "", "fresh = i fresh = nil"),
  variant("new global write, guard, no author", true, "", "fresh = i fresh = nil"),
  variant(
    "new global write, author __newindex function",
    true,
    "local sink = {} setmetatable(_G, { __newindex = function(_, k, v) sink[k] = v end })",
    "fresh = i fresh = nil",
  ),
  variant(
    "new global write, author __newindex table",
    true,
    "setmetatable(_G, { __newindex = {} })",
    "fresh = i fresh = nil",
  ),
];

const results = pairedRounds(
  variants.map((v) => [
    v.name,
    () =>
      timeMs(() => {
        const outcome = v.vm.runPrivileged({ bytecode: v.bytecode, chunkName: "bench", args: [N] });
        if (!outcome.ok) throw new Error(`${v.name}: ${outcome.message}`);
      }),
  ]),
  9,
);
const emptyMs = results[0]?.medianMs ?? 0;
const perOp = (ms: number) => ((ms - emptyMs) * 1e6) / N;
const tableReadNs = perOp(results[1]?.medianMs ?? 0);
summary.push(
  "",
  `Global access (CPU ns per operation, loop of ${N} minus the empty loop; x = vs plain table read):`,
);
for (const result of results.slice(1)) {
  const ns = perOp(result.medianMs);
  summary.push(
    `  ${result.name.padEnd(48)} ${fmt(ns).padStart(6)} ns  ${(ns / tableReadNs).toFixed(1).padStart(5)}x`,
  );
}
for (const vm of vms) vm.close();

console.log(`\n=== @runvil/lua globals: one run, paired rounds ===\n${summary.join("\n")}\n`);

describe("globals", () => {
  bench("create + installGlobalGuard + close", () => {
    const vm = factory.create();
    installGlobalGuard(vm);
    vm.close();
  });
});
