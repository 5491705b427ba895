import { performance } from "node:perf_hooks";
import type { EffectPort, RunCatalog } from "@runvil/protocol";
import { bench, describe } from "vitest";
import {
  ensureSealedTargets,
  installErrors,
  installGlobalGuard,
  installIteration,
  installJson,
  loadLuaRuntime,
  loadLuaVmFactory,
} from "../src/lua";
import { loadEngine } from "../src/run/engine";
import { RunContext } from "../src/run/run-context";
import { resolveRunOptions } from "../src/run/run-options";
import { Scope } from "../src/scope/scope";
import { parseForTest, promptText } from "../src/test-support/parse";
import { installTools } from "../src/tools/install-tools";
import { Chain } from "../src/walk/chain";
import { Entry } from "../src/walk/entry";

/**
 * The Engine's cost of one script tools.call round trip to a trivial catalog tool (a port that
 * answers at once, events dropped), against an equally shaped store.exists round trip and an
 * empty loop iteration, each a block looping CALLS times, measured in the same run. Goal:
 * ≤ 20 µs of Engine overhead per call. Before vitest's tables, prints the medians of paired
 * rounds, per call, minus the empty loop, and what installTools adds to a section VM's setup.
 */

const CALLS = 2000;
const block = (body: string): string =>
  promptText(
    `# Bench\n\n## Loop\n\n\`\`\`lua\nfor i = 1, ${CALLS} do\n  ${body}\nend\nreturn 'done'\n\`\`\`\n`,
  );
const [toolPrompt, localPrompt, storePrompt, emptyPrompt] = await Promise.all([
  parseForTest(block("tools.call('bench/noop')")),
  parseForTest(
    block("tools.call('noop')").replace(
      "for i = 1",
      "tools.offer_local('noop', 'Noop', {}, function() return 'ok' end)\nfor i = 1",
    ),
  ),
  parseForTest(block("store.exists('x')")),
  parseForTest(block("local _ = i")),
]);
const engine = await loadEngine();
const factory = await loadLuaVmFactory();
factory.warmUp();

const catalog: RunCatalog = {
  tools: [
    {
      id: "bench/noop",
      pack: "bench",
      wireName: "bench_noop",
      description: "Does nothing.",
      parameters: { type: "object", properties: {} },
      structured: false,
    },
  ],
  packs: null,
  preludes: [],
  dropped: [],
  models: [],
};

const port: EffectPort = {
  storeOp: (): Promise<never> => Promise.resolve(false as never),
  toolCall: () => Promise.resolve({ text: "ok", trusted: true }),
  emit: () => undefined,
};

async function runOnce(prompt: typeof toolPrompt): Promise<void> {
  const result = await engine.run(prompt, { effects: port, catalog });
  if (result.outcome !== "succeeded") {
    throw new Error(`the bench run did not succeed: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

async function msOf(prompt: typeof toolPrompt): Promise<number> {
  const start = performance.now();
  await runOnce(prompt);
  return performance.now() - start;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

for (const prompt of [toolPrompt, localPrompt, storePrompt, emptyPrompt]) await runOnce(prompt);
const rounds = {
  tool: [] as number[],
  local: [] as number[],
  store: [] as number[],
  empty: [] as number[],
};
for (let round = 0; round < 9; round++) {
  rounds.tool.push(await msOf(toolPrompt));
  rounds.local.push(await msOf(localPrompt));
  rounds.store.push(await msOf(storePrompt));
  rounds.empty.push(await msOf(emptyPrompt));
}
// installTools per VM: VMs set up to step 5's prerequisites, with and without the tools install.
const ctx = new RunContext(
  emptyPrompt,
  resolveRunOptions({ effects: port, catalog }),
  await loadLuaRuntime(),
);
const entry = new Entry(ctx, Chain.root(Scope.root(factory, ctx.options)), 0, "");
const VMS = 500;
function setUpVms(withTools: boolean): void {
  for (let i = 0; i < VMS; i++) {
    const vm = factory.create();
    installErrors(vm);
    installGlobalGuard(vm);
    installIteration(vm);
    installJson(vm);
    ensureSealedTargets(vm);
    if (withTools) installTools(vm, entry);
    vm.close();
  }
}
const installRounds = { with: [] as number[], without: [] as number[] };
for (let round = 0; round < 9; round++) {
  let start = performance.now();
  setUpVms(true);
  installRounds.with.push(performance.now() - start);
  start = performance.now();
  setUpVms(false);
  installRounds.without.push(performance.now() - start);
}
const installUs = ((median(installRounds.with) - median(installRounds.without)) * 1000) / VMS;
const setupUs = (median(installRounds.without) * 1000) / VMS;

const perCall = (ms: number[]): number => ((median(ms) - median(rounds.empty)) * 1000) / CALLS;
const tool = perCall(rounds.tool);
const local = perCall(rounds.local);
const store = perCall(rounds.store);
console.log(
  [
    `tools.call to a catalog tool: ${tool.toFixed(2)} µs per call (goal ≤ 20 µs)`,
    `tools.call to a local tool: ${local.toFixed(2)} µs per call`,
    `store.exists: ${store.toFixed(2)} µs per call`,
    `catalog tools.call / store.exists: ${(tool / store).toFixed(2)}×`,
    `empty loop of ${CALLS} (whole run): ${median(rounds.empty).toFixed(2)} ms`,
    `installTools per VM: ${installUs.toFixed(1)} µs (VM create + errors, guard, pairs, json + close: ${setupUs.toFixed(1)} µs)`,
  ].join("\n"),
);

describe("tools.call round trip", () => {
  bench(`${CALLS} catalog tools.call`, () => runOnce(toolPrompt), { iterations: 5 });
  bench(`${CALLS} local tools.call`, () => runOnce(localPrompt), { iterations: 5 });
  bench(`${CALLS} store.exists`, () => runOnce(storePrompt), { iterations: 5 });
  bench(`empty loop of ${CALLS}`, () => runOnce(emptyPrompt), { iterations: 5 });
});
