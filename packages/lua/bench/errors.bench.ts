import { bench, describe } from "vitest";
import { EngineError } from "../src/engine-error";
import { installErrors } from "../src/errors/install-errors";
import { loadLuaRuntime } from "../src/runtime";
import { loadLuaVmFactory } from "../src/vm/factory";
import type { LuaVm } from "../src/vm/lua-vm";
import { HostError } from "../src/vm/values";
import { fmt, pairedRounds, timeMs } from "./support/paired";

/**
 * Benchmarks of the errors area, measured in one run (paired rounds, medians) and printed as a
 * summary before vitest's own tables: the cost installErrors adds to a VM, the Engine's pcall and
 * xpcall against Lua's own (the private originals) on a succeeding and on a raising function,
 * and raising an error value from a host function against raising a plain string.
 */

const factory = await loadLuaVmFactory();
factory.warmUp();
const summary: string[] = [];

// 1. Install cost ------------------------------------------------------------------------------
const VMS = 200;
const runtime = await loadLuaRuntime();
function compiled(source: string): Uint8Array {
  const result = runtime.compile(source, "=bench");
  if (!result.ok) throw new Error(result.diagnostic);
  return result.bytecode;
}
const failing = () => {
  throw new EngineError("tool", "nope");
};
/** A first failure in a fresh VM: Lua's own pcall around a host function that throws. */
const firstFailure = compiled("local P = ... P.pcall(fail)");
/** Loading the error helpers without raising anything. */
const loadHelpers = compiled("local P = ... P.errors.load()");

/** Milliseconds for VMS VMs, each made, given `work`, and closed. */
function vms(work: (vm: LuaVm) => void): () => number {
  return () =>
    timeMs(() => {
      for (let i = 0; i < VMS; i++) {
        const fresh = factory.create();
        work(fresh);
        fresh.close();
      }
    });
}

function privileged(vm: LuaVm, bytecode: Uint8Array): void {
  const outcome = vm.runPrivileged({ bytecode, chunkName: "=bench" });
  if (!outcome.ok) throw new Error(outcome.message);
}

const lifecycle = pairedRounds(
  [
    ["create + close", vms(() => undefined)],
    ["+ installErrors", vms((fresh) => installErrors(fresh))],
    [
      "+ installErrors + loading the helpers",
      vms((fresh) => {
        installErrors(fresh);
        privileged(fresh, loadHelpers);
      }),
    ],
    [
      "+ a first host error, raised as a string (no installErrors)",
      vms((fresh) => {
        fresh.setGlobalFunction("fail", failing);
        privileged(fresh, firstFailure);
      }),
    ],
    [
      "+ installErrors + a first host error, raised as an error value",
      vms((fresh) => {
        installErrors(fresh);
        fresh.setGlobalFunction("fail", failing);
        privileged(fresh, firstFailure);
      }),
    ],
  ],
  15,
);
const base = lifecycle[0];
summary.push("VM lifecycle (median µs per VM, paired rounds; extra µs vs create + close):");
for (const r of lifecycle) {
  const us = (r.medianMs * 1000) / VMS;
  const extra = base === undefined ? 0 : us - (base.medianMs * 1000) / VMS;
  summary.push(`  ${r.name}: ${fmt(us)} µs (+${fmt(extra)})`);
}

// 2. pcall and xpcall ------------------------------------------------------------------------
const vm: LuaVm = factory.create();
installErrors(vm);
vm.setGlobals({
  fail_value: () => {
    throw new EngineError("store", "a.md: not found", { reason: "not_found", path: "a.md" });
  },
  fail_string: () => {
    throw new HostError("a.md: not found");
  },
});

const LOOPS = 20_000;

/** Times `body` run LOOPS times in a privileged chunk; `P` (the private table) holds the originals. */
function loop(body: string): () => number {
  const source = `local P = ...
local pcall, xpcall = P._G.pcall, P._G.xpcall
local raw_pcall, raw_xpcall = P.pcall, P.xpcall
local ok_fn = function(a) return a, 2 end
local handler = function(e) return e end
local fail_value, fail_string = fail_value, fail_string
for i = 1, ${LOOPS} do ${body} end`;
  return () =>
    timeMs(() => {
      const outcome = vm.runPrivileged({ source, chunkName: "=bench" });
      if (!outcome.ok) throw new Error(outcome.message);
    });
}

const groups: readonly (readonly [string, readonly (readonly [string, () => number])[]])[] = [
  [
    "pcall of a succeeding function",
    [
      ["Lua's pcall", loop("raw_pcall(ok_fn, i)")],
      ["Engine pcall", loop("pcall(ok_fn, i)")],
    ],
  ],
  [
    "pcall(error, 'x')",
    [
      ["Lua's pcall", loop("raw_pcall(error, 'x')")],
      ["Engine pcall", loop("pcall(error, 'x')")],
    ],
  ],
  [
    "xpcall of a succeeding function",
    [
      ["Lua's xpcall", loop("raw_xpcall(ok_fn, handler, i)")],
      ["Engine xpcall", loop("xpcall(ok_fn, handler, i)")],
    ],
  ],
  [
    "xpcall(error, handler, 'x')",
    [
      ["Lua's xpcall", loop("raw_xpcall(error, handler, 'x')")],
      ["Engine xpcall", loop("xpcall(error, handler, 'x')")],
    ],
  ],
  [
    "a host function that raises, under Lua's pcall",
    [
      ["a string (HostError)", loop("raw_pcall(fail_string)")],
      ["a store error value (EngineError)", loop("raw_pcall(fail_value)")],
    ],
  ],
];

summary.push("", `pcall and xpcall (ns per call, median of paired rounds; ratio vs the first):`);
for (const [title, variants] of groups) {
  const results = pairedRounds(variants, 15);
  const cells = results.map(
    (r) => `${r.name} ${fmt((r.medianMs * 1e6) / LOOPS)} ns (${r.ratio.toFixed(2)}×)`,
  );
  summary.push(`  ${title}: ${cells.join(", ")}`);
}

console.log(
  `\n=== @runvil/lua errors: one run, ratios from paired rounds ===\n${summary.join("\n")}\n`,
);

describe("errors", () => {
  bench("create + installErrors + close", () => {
    const fresh = factory.create();
    installErrors(fresh);
    fresh.close();
  });
  bench("20k Engine pcall(error, 'x')", () => {
    loop("pcall(error, 'x')")();
  });
  bench("20k Lua pcall(error, 'x')", () => {
    loop("raw_pcall(error, 'x')")();
  });
});
