import { performance } from "node:perf_hooks";
import type { EffectPort, RunCatalog, RunModelRole } from "@runvil/protocol";
import { bench, describe } from "vitest";
import { loadEngine } from "../src/run/engine";
import { parseForTest } from "../src/test-support/parse";

/**
 * What the cost ledger and budgets add to a model round (docs/design/cost.md, budgets.md): a
 * block of CALLS models.infer rounds on a port that answers at once (events dropped), on a
 * model without prices (the reference), on a priced one (every round priced exactly and summed
 * per section, task and run), and on a priced one under a budget of four limits (each round
 * checked before and after). Before vitest's tables, prints the medians of paired rounds per
 * model round. Goal: the ledger and the checks together ≤ 5 µs a round.
 */

const CALLS = 2000;
const block = (budget: string): string =>
  `---\nname: b\ndescription: b\nruntime: 0\nmodels:\n  writer: { max_output_tokens: 100 }\n${budget}---\n\n# Bench\n\n## Loop\n\n\`\`\`lua\nmodels.use('writer')\nfor i = 1, ${CALLS} do\n  models.infer('ping')\nend\nreturn 'done'\n\`\`\`\n`.replace(
    "runtime: 0",
    "runvil: 0",
  );
const [plainPrompt, budgetPrompt] = await Promise.all([
  parseForTest(block("")),
  parseForTest(
    block(
      "budget:\n  run: { max_tokens: 100000000, max_cost_usd: 1000 }\n  section: { max_tokens: 100000000, max_cost_usd: 1000 }\n",
    ),
  ),
]);
const engine = await loadEngine();

const role: RunModelRole = {
  label: "writer",
  model: "bench-model",
  contextWindow: 200_000,
  maxOutputTokens: 32_000,
  tools: true,
  settings: { maxOutputTokens: 100 },
  maxRounds: 20,
};
const catalogOf = (priced: boolean): RunCatalog => ({
  tools: [],
  packs: null,
  preludes: [],
  dropped: [],
  models: [
    priced
      ? {
          ...role,
          prices: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 },
        }
      : role,
  ],
});
const reply = {
  text: "pong",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 1234, outputTokens: 56, cachedInputTokens: 1000 },
};
const port: EffectPort = {
  storeOp: (): Promise<never> => Promise.resolve(false as never),
  modelRound: () => Promise.resolve(reply),
  emit: () => undefined,
};

const cases = {
  unpriced: { prompt: plainPrompt, catalog: catalogOf(false) },
  priced: { prompt: plainPrompt, catalog: catalogOf(true) },
  budgeted: { prompt: budgetPrompt, catalog: catalogOf(true) },
};
type Case = keyof typeof cases;

async function runOnce(name: Case): Promise<void> {
  const { prompt, catalog } = cases[name];
  const result = await engine.run(prompt, { effects: port, catalog });
  if (result.outcome !== "succeeded") {
    throw new Error(`the bench run did not succeed: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

async function msOf(name: Case): Promise<number> {
  const start = performance.now();
  await runOnce(name);
  return performance.now() - start;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const names = Object.keys(cases) as Case[];
for (const name of names) await runOnce(name);
const rounds: Record<Case, number[]> = { unpriced: [], priced: [], budgeted: [] };
for (let round = 0; round < 9; round++) {
  for (const name of names) rounds[name].push(await msOf(name));
}
const perRound = (name: Case): number => (median(rounds[name]) * 1000) / CALLS;
console.log(
  [
    `cost ledger, per models.infer round (medians of 9 paired runs of ${CALLS} rounds):`,
    `  unpriced model, no budget (reference): ${perRound("unpriced").toFixed(2)} µs`,
    `  priced model: ${perRound("priced").toFixed(2)} µs (+${(perRound("priced") - perRound("unpriced")).toFixed(2)} µs)`,
    `  priced model, four budget limits: ${perRound("budgeted").toFixed(2)} µs (+${(perRound("budgeted") - perRound("unpriced")).toFixed(2)} µs)`,
  ].join("\n"),
);

describe("cost ledger", () => {
  for (const name of names) bench(name, () => runOnce(name), { iterations: 5, time: 0 });
});
