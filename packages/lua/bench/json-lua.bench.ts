import { bench, describe } from "vitest";
import { installJson } from "../src/json-lua/index";
import { loadLuaVmFactory } from "../src/vm/factory";
import type { LuaVm } from "../src/vm/lua-vm";
import { fmt, pairedRounds } from "./support/paired";

/**
 * json.encode / json.decode in a section VM against JSON.stringify / JSON.parse on the same
 * 1 MB document, plus the per-VM cost of installJson. Prints a summary measured in one run
 * (paired rounds, medians), then vitest's own tables.
 *
 * The Lua side runs through vm.runPrivileged (synchronous) calling a Lua function defined once,
 * so each sample is one json call plus a few microseconds of chunk overhead. Like every bench of
 * src/ under vitest, the JS walk pays Vite's module transform (see vm.bench.ts).
 *
 * The summary times CPU (process.cpuUsage, user + system) rather than the wall clock: the build
 * machine is shared, and waiting for a core is not work. V8's collector threads count too.
 */

/** Milliseconds of CPU `work` takes once. */
function cpuMs(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** A deterministic document of about `targetBytes` bytes, shaped like tool output. */
function makeDocument(targetBytes: number): string {
  const words = ["alpha", "beta", "gamma", "tides", "moon", "sea", "café", "naïve", "日本", "🌊"];
  const records: unknown[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const record = {
      id: i,
      name: `${words[i % words.length]} ${i}`,
      score: (i * 7919) / 113,
      big: 2 ** 53 + 2 * i,
      ok: i % 3 === 0,
      note: i % 5 === 0 ? null : `line one\nline "two" ${i}\t/end`,
      tags: [words[i % 7], words[(i + 3) % 10], `t${i % 13}`],
      nested: { depth: { level: i % 4, ratio: 0.5 + i / 1000, empty: [] } },
    };
    records.push(record);
    size += JSON.stringify(record).length + 1;
  }
  return JSON.stringify({ kind: "bench", count: records.length, records });
}

const factory = await loadLuaVmFactory();
factory.warmUp();

// Per-VM cost of installJson: create + install + close against create + close, paired
// batches, measured before the large document exists (its garbage would slow the collector).
function batchUs(work: () => void): number {
  const batch = 200;
  return (
    (cpuMs(() => {
      for (let i = 0; i < batch; i++) work();
    }) *
      1000) /
    batch
  );
}
const lifecycle = pairedRounds(
  [
    ["create + close", () => batchUs(() => factory.create().close())],
    [
      "create + installJson + close",
      () =>
        batchUs(() => {
          const v = factory.create();
          installJson(v);
          v.close();
        }),
    ],
  ],
  15,
);
const installCost = `  per VM: ${lifecycle
  .map((r) => `${r.name} ${fmt(r.medianMs)} µs (min ${fmt(r.minMs)})`)
  .join(
    ", ",
  )}; installJson adds ${fmt((lifecycle[1]?.medianMs ?? 0) - (lifecycle[0]?.medianMs ?? 0))} µs (${(lifecycle[1]?.ratio ?? 0).toFixed(2)}x)`;

const text = makeDocument(1_000_000);
const bytes = new TextEncoder().encode(text).length;
const parsed: unknown = JSON.parse(text);

const vm: LuaVm = factory.create();
installJson(vm);
vm.setGlobal("TEXT", text);
const setup = vm.runPrivileged({
  chunkName: "bench",
  source: `
    DOC = json.decode(TEXT)
    function DECODE() local v = json.decode(TEXT) end
    function ENCODE() local s = json.encode(DOC) end
    function ENCODE_DEBUG() local s = json.encode(DOC, { debug = true }) end
    function SAME() return json.encode(DOC) == json.encode(json.decode(TEXT)) end
  `,
});
if (!setup.ok) throw new Error(`bench setup failed: ${setup.message}`);

function callLua(name: string): void {
  const outcome = vm.runPrivileged({ chunkName: "bench", source: `${name}()` });
  if (!outcome.ok) throw new Error(`${name} failed: ${outcome.message}`);
}

// The Lua text must be what JSON.stringify writes modulo key order and number spelling; check
// the round trip is stable before timing anything.
const same = vm.runPrivileged({ chunkName: "bench", source: "return SAME()" });
if (!same.ok || same.values[0] !== true) throw new Error("json.encode round trip is not stable");

const summary: string[] = [];
const rounds = 15;
const decodeResults = pairedRounds(
  [
    ["JSON.parse", () => cpuMs(() => JSON.parse(text))],
    ["json.decode", () => cpuMs(() => callLua("DECODE"))],
  ],
  rounds,
);
const encodeResults = pairedRounds(
  [
    ["JSON.stringify", () => cpuMs(() => JSON.stringify(parsed))],
    ["json.encode", () => cpuMs(() => callLua("ENCODE"))],
    ["json.encode debug", () => cpuMs(() => callLua("ENCODE_DEBUG"))],
  ],
  rounds,
);
summary.push(installCost, `  document: ${bytes} bytes`);
for (const r of [...decodeResults, ...encodeResults]) {
  summary.push(`  ${r.name}: ${fmt(r.medianMs)} ms (min ${fmt(r.minMs)}), ${r.ratio.toFixed(2)}x`);
}

console.log(
  `\n=== json on a LuaVm: one run, ratios from paired rounds ===\n${summary.join("\n")}\n`,
);

describe(`decode a ${bytes}-byte document`, () => {
  bench("json.decode (Lua values built on the stack)", () => callLua("DECODE"));
  bench("reference: JSON.parse", () => {
    JSON.parse(text);
  });
});

describe(`encode the same ${bytes}-byte document`, () => {
  bench("json.encode (sorted keys, all checks)", () => callLua("ENCODE"));
  bench("reference: JSON.stringify", () => {
    JSON.stringify(parsed);
  });
});

describe("per-VM setup", () => {
  bench("create + installJson + close", () => {
    const v = factory.create();
    installJson(v);
    v.close();
  });
  bench("reference: create + close", () => {
    factory.create().close();
  });
});
