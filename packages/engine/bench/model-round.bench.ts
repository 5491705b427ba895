import { MemoryStore, RunPort } from "@runvil/harness";
import { createHost, modelPortFor, type PreparedRun, toolDispatcherFor } from "@runvil/host";
import type { Prompt } from "@runvil/parser";
import type { ModelReply, ModelRoundRequest, PackDefinition } from "@runvil/sdk";
import { definePlugin, MODEL_SPECIFICATION_VERSION } from "@runvil/sdk";
import { bench, describe } from "vitest";
import { type LuaVm, loadLuaVmFactory } from "../src/lua";
import { loadEngine } from "../src/run/engine";
import { parseForTest } from "../src/test-support/parse";

/**
 * The Engine + Harness cost of model rounds (docs/design/loop.md), on a Host prepared as the CLI
 * prepares one: the real RunPort, ModelDispatcher and ToolDispatcher, a provider that answers
 * at once and a catalog tool that does nothing, events dropped. Against a reference measured in
 * the same run: a block of the same number of store.exists round trips.
 *
 * - per model round: a block of ROUNDS models.infer calls, minus an empty loop, per round
 *   (goal ≤ 50 µs);
 * - per loop round: one models.loop of ROUNDS rounds, each calling one local tool;
 * - per model-issued call in a batch: loops whose rounds each call the catalog tool 1 or
 *   1 + EXTRA times; the difference per extra call (goal ≤ 20 µs);
 * - a 500-round loop: the section VM's Lua heap and the JS heap sampled every 100 rounds, to see
 *   that they stay flat (the conversation's own records are a few bytes a round).
 * Before vitest's tables, prints the medians of 15 paired rounds, in CPU time.
 */

const ROUNDS = 200;
const EXTRA = 8;
const LONG = 500;

/** Replies by model id: the loop's rounds call tools until its last round answers with text. */
function reply(model: string, request: ModelRoundRequest): ModelReply {
  const usage = { inputTokens: 1, outputTokens: 1 };
  if (model === "bench-infer") {
    return { text: "answer", toolCalls: [], finishReason: "stop", usage };
  }
  // A loop's round number: how many assistant records the conversation holds, plus one.
  let round = 1;
  for (const record of request.messages) if (record.role === "assistant") round++;
  const last = model === "bench-long" ? LONG : ROUNDS;
  if (round >= last) return { text: "done", toolCalls: [], finishReason: "stop", usage };
  const calls =
    model === "bench-local" || model === "bench-long"
      ? [{ id: `r${round}`, name: "noop", arguments: {} }]
      : Array.from({ length: model === "bench-batch" ? 1 + EXTRA : 1 }, (_, i) => ({
          id: `r${round}c${i}`,
          name: "bench_noop",
          arguments: {},
        }));
  return { text: "", toolCalls: calls, finishReason: "tool_calls", usage };
}

const jsHeap: number[] = [];
const luaHeap: number[] = [];
// The section VM of the run, seen through the process's one VM factory (its Lua heap).
let liveVm: LuaVm | undefined;
const factory = await loadLuaVmFactory();
const create = factory.create.bind(factory);
factory.create = (options) => {
  liveVm = create(options);
  return liveVm;
};

const benchPack: PackDefinition = {
  vendor: "runvil",
  name: "bench",
  description: "The bench Pack.",
  tools: [
    {
      id: "bench/noop",
      description: "Does nothing.",
      parameters: { type: "object", properties: {} },
      output: "plain",
      trust: "trusted",
      run: () => "ok",
    },
  ],
};

const MODELS = ["bench-infer", "bench-local", "bench-single", "bench-batch", "bench-long"];
const created = await createHost({
  plugins: [
    {
      plugin: definePlugin({
        name: "bench",
        setup(api) {
          api.addPack(benchPack);
          api.addModelProvider({
            specificationVersion: MODEL_SPECIFICATION_VERSION,
            name: "bench",
            models: MODELS.map((id) => ({
              id,
              contextWindow: 100_000_000,
              maxOutputTokens: 1000,
              tools: true,
            })),
            round: (request) => {
              if (request.model === "bench-long" && request.messages.length % 200 === 1) {
                // With node --expose-gc (NODE_OPTIONS), a collection first: the live heap.
                (globalThis as { gc?: () => void }).gc?.();
                jsHeap.push(process.memoryUsage().heapUsed);
                luaHeap.push(liveVm?.memoryUsed ?? Number.NaN);
              }
              return Promise.resolve(reply(request.model, request));
            },
          });
        },
      }),
    },
  ],
});

function promptOf(model: string, body: string): string {
  return `---
name: bench
description: bench
runvil: 0
uses: [bench]
models:
  writer:
    model: ${model}
    max_rounds: 1000
---

# Bench

## Loop

\`\`\`lua
models.use('writer')
${body}
\`\`\`
`;
}

const sources = {
  infer: promptOf("bench-infer", `for i = 1, ${ROUNDS} do models.infer('q') end\nreturn 'done'`),
  store: promptOf("bench-infer", `for i = 1, ${ROUNDS} do store.exists('x') end\nreturn 'done'`),
  empty: promptOf("bench-infer", `for i = 1, ${ROUNDS} do local _ = i end\nreturn 'done'`),
  local: promptOf(
    "bench-local",
    "tools.offer_local('noop', 'Noop', {}, function() return '' end)\nmessages:user('go')\nreturn models.loop()",
  ),
  single: promptOf(
    "bench-single",
    "tools.offer('bench/noop')\nmessages:user('go')\nreturn models.loop()",
  ),
  batch: promptOf(
    "bench-batch",
    "tools.offer('bench/noop')\nmessages:user('go')\nreturn models.loop()",
  ),
  long: promptOf(
    "bench-long",
    "tools.offer_local('noop', 'Noop', {}, function() return '' end)\nmessages:user('go')\nreturn models.loop()",
  ),
};
type Name = keyof typeof sources;

const engine = await loadEngine();
const prompts = {} as Record<Name, Prompt>;
const prepared = {} as Record<Name, PreparedRun>;
for (const [name, source] of Object.entries(sources) as [Name, string][]) {
  const prompt = await parseForTest(source);
  const run = created.prepare(prompt);
  if (!run.ok) throw new Error(run.notice);
  prompts[name] = prompt;
  prepared[name] = run.run;
}

async function runOnce(name: Name): Promise<string | null> {
  const run = prepared[name];
  const store = new MemoryStore();
  const port = new RunPort(store, {
    tools: toolDispatcherFor(run, { store }),
    models: modelPortFor(run),
  });
  const result = await engine.run(prompts[name], { effects: port, catalog: run.catalog });
  if (result.outcome !== "succeeded") {
    throw new Error(`the bench run did not succeed: ${JSON.stringify(result).slice(0, 400)}`);
  }
  return result.result;
}

/** CPU milliseconds of one run: steadier than wall time on a shared machine. */
async function msOf(name: Name): Promise<number> {
  const start = process.cpuUsage();
  await runOnce(name);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const names: Name[] = ["infer", "store", "empty", "local", "single", "batch"];
for (const name of names) await runOnce(name);
const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
  Name,
  number[]
>;
for (let round = 0; round < 15; round++) {
  for (const name of names) times[name].push(await msOf(name));
}
const us = (ms: number, count: number): number => (ms * 1000) / count;
const empty = median(times.empty);
const perInfer = us(median(times.infer) - empty, ROUNDS);
const perStore = us(median(times.store) - empty, ROUNDS);
const perLoopRound = us(median(times.local), ROUNDS);
const perSingle = us(median(times.single), ROUNDS);
const perExtraCall = us(median(times.batch) - median(times.single), ROUNDS * EXTRA);

await runOnce("long");
jsHeap.length = 0;
luaHeap.length = 0;
const longMs = await msOf("long");

console.log(
  [
    `models.infer round: ${perInfer.toFixed(2)} µs per round (goal ≤ 50 µs)`,
    `store.exists round trip (reference): ${perStore.toFixed(2)} µs per op; infer / store ${(perInfer / perStore).toFixed(2)}×`,
    `models.loop round with one local call: ${perLoopRound.toFixed(2)} µs per round (whole run / ${ROUNDS})`,
    `models.loop round with one catalog call: ${perSingle.toFixed(2)} µs per round (whole run / ${ROUNDS})`,
    `model-issued catalog call in a batch: ${perExtraCall.toFixed(2)} µs per extra call (goal ≤ 20 µs; batches of ${1 + EXTRA} against 1)`,
    `${LONG}-round loop: ${longMs.toFixed(1)} ms; every 200 records (100 rounds): Lua heap KiB ${luaHeap
      .map((b) => (b / 1024).toFixed(0))
      .join(",")}; JS heap MiB ${jsHeap.map((b) => (b / 1048576).toFixed(1)).join(",")}`,
  ].join("\n"),
);

describe("model rounds", () => {
  bench(`${ROUNDS} models.infer rounds`, () => runOnce("infer").then(() => undefined), {
    iterations: 5,
  });
  bench(`${ROUNDS} store.exists`, () => runOnce("store").then(() => undefined), { iterations: 5 });
  bench(
    `a ${ROUNDS}-round loop, one local call a round`,
    () => runOnce("local").then(() => undefined),
    {
      iterations: 5,
    },
  );
  bench(
    `a ${ROUNDS}-round loop, ${1 + EXTRA} catalog calls a round`,
    () => runOnce("batch").then(() => undefined),
    { iterations: 5 },
  );
});
