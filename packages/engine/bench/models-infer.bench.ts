import { performance } from "node:perf_hooks";
import type { EffectPort, RunCatalog } from "@runvil/protocol";
import { bench, describe } from "vitest";
import { installLazyGlobals } from "../src/globals/lazy-globals";
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
import { parseForTest } from "../src/test-support/parse";
import { installTools } from "../src/tools/install-tools";
import { Chain } from "../src/walk/chain";
import { Entry } from "../src/walk/entry";

/**
 * The Engine's cost of one models.infer round on a port that answers at once (events dropped),
 * of a messages:user append and a record read, against an equally shaped store.exists round
 * trip and an empty loop iteration, each a block looping CALLS times, measured in the same run.
 * Goal: ≤ 50 µs of Engine overhead per scripted model round. Before vitest's tables, prints the
 * medians of paired rounds, per operation, minus the empty loop, and what installLazyGlobals (the
 * tools core with prompt, models, messages, tasks and compactors) adds to a section VM's setup,
 * beside installTools's alone in the same rounds.
 */

const CALLS = 2000;
const block = (body: string, before = ""): string =>
  `---\nname: b\ndescription: b\nrunvil: 0\nmodels:\n  writer: {}\n---\n\n# Bench\n\n## Loop\n\n\`\`\`lua\nmodels.use('writer')\n${before}\nfor i = 1, ${CALLS} do\n  ${body}\nend\nreturn 'done'\n\`\`\`\n`;
const [inferPrompt, appendPrompt, readPrompt, storePrompt, emptyPrompt] = await Promise.all([
  parseForTest(block("models.infer('ping')")),
  parseForTest(block("messages:user('hello')")),
  parseForTest(block("local _ = messages[1].content", "messages:user('hello')")),
  parseForTest(block("store.exists('x')")),
  parseForTest(block("local _ = i")),
]);
const engine = await loadEngine();
const factory = await loadLuaVmFactory();
factory.warmUp();

const catalog: RunCatalog = {
  tools: [],
  packs: null,
  preludes: [],
  dropped: [],
  models: [
    {
      label: "writer",
      model: "bench-model",
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      tools: true,
      settings: {},
      maxRounds: 20,
    },
  ],
};

const reply = {
  text: "pong",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 5, outputTokens: 1 },
};
const port: EffectPort = {
  storeOp: (): Promise<never> => Promise.resolve(false as never),
  modelRound: () => Promise.resolve(reply),
  emit: () => undefined,
};

async function runOnce(prompt: typeof inferPrompt): Promise<void> {
  const result = await engine.run(prompt, { effects: port, catalog });
  if (result.outcome !== "succeeded") {
    throw new Error(`the bench run did not succeed: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

async function msOf(prompt: typeof inferPrompt): Promise<number> {
  const start = performance.now();
  await runOnce(prompt);
  return performance.now() - start;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const prompts = { infer: inferPrompt, append: appendPrompt, read: readPrompt, store: storePrompt };
for (const prompt of [...Object.values(prompts), emptyPrompt]) await runOnce(prompt);
const rounds: Record<keyof typeof prompts | "empty", number[]> = {
  infer: [],
  append: [],
  read: [],
  store: [],
  empty: [],
};
for (let round = 0; round < 9; round++) {
  for (const [name, prompt] of Object.entries(prompts)) {
    rounds[name as keyof typeof prompts].push(await msOf(prompt));
  }
  rounds.empty.push(await msOf(emptyPrompt));
}

// installLazyGlobals (which runs the tools core too) and installTools per VM: VMs set up to their
// prerequisites, with and without.
const ctx = new RunContext(
  emptyPrompt,
  resolveRunOptions({ effects: port, catalog }),
  await loadLuaRuntime(),
);
const entry = new Entry(ctx, Chain.root(Scope.root(factory, ctx.options)), 0, "");
const VMS = 500;
type Install = "none" | "lazy" | "tools";
function setUpVms(install: Install): void {
  for (let i = 0; i < VMS; i++) {
    const vm = factory.create();
    installErrors(vm);
    installGlobalGuard(vm);
    installIteration(vm);
    installJson(vm);
    ensureSealedTargets(vm);
    if (install === "lazy") installLazyGlobals(vm, entry);
    if (install === "tools") installTools(vm, entry);
    vm.close();
  }
}
const installRounds: Record<Install, number[]> = { none: [], lazy: [], tools: [] };
for (let round = 0; round < 9; round++) {
  for (const install of ["none", "lazy", "tools"] as const) {
    const start = performance.now();
    setUpVms(install);
    installRounds[install].push(performance.now() - start);
  }
}
const installUs = (install: Install): number =>
  ((median(installRounds[install]) - median(installRounds.none)) * 1000) / VMS;

const perCall = (ms: number[]): number => ((median(ms) - median(rounds.empty)) * 1000) / CALLS;
const infer = perCall(rounds.infer);
const store = perCall(rounds.store);
console.log(
  [
    `models.infer round on a scripted port: ${infer.toFixed(2)} µs per round (goal ≤ 50 µs)`,
    `store.exists: ${store.toFixed(2)} µs per call (infer / store.exists: ${(infer / store).toFixed(2)}×)`,
    `messages:user: ${perCall(rounds.append).toFixed(2)} µs per append`,
    `messages[1].content: ${perCall(rounds.read).toFixed(2)} µs per read`,
    `empty loop of ${CALLS} (whole run): ${median(rounds.empty).toFixed(2)} ms`,
    `installLazyGlobals per VM: ${installUs("lazy").toFixed(1)} µs, installTools alone: ${installUs("tools").toFixed(1)} µs (the lazy globals: ${(installUs("lazy") - installUs("tools")).toFixed(1)} µs)`,
  ].join("\n"),
);

describe("models.infer round trip", () => {
  bench(`${CALLS} models.infer`, () => runOnce(inferPrompt), { iterations: 5 });
  bench(`${CALLS} messages:user`, () => runOnce(appendPrompt), { iterations: 5 });
  bench(`${CALLS} store.exists`, () => runOnce(storePrompt), { iterations: 5 });
  bench(`empty loop of ${CALLS}`, () => runOnce(emptyPrompt), { iterations: 5 });
});
