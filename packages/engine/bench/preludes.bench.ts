import { performance } from "node:perf_hooks";
import type { EffectPort, RunCatalog } from "@runvil/protocol";
import { bench, describe } from "vitest";
import { USER_INPUT_PRELUDE } from "../src/preludes/test-support";
import { loadEngine } from "../src/run/engine";
import { parseForTest, promptText } from "../src/test-support/parse";

/**
 * The per-VM cost of Pack preludes: the same walk of 1,000 one-block sections run with the
 * user-input Pack's prelude installed in every section VM, and with no prelude, in paired
 * rounds of one run. The difference per section is the install's cost (loading the prelude's
 * bytecode in a coroutine, its restricted environment, the name checks, the sealed `input`).
 * Prints the medians and the minimums (the least disturbed rounds on a shared machine) of nine
 * paired rounds before vitest's tables.
 */

const SECTIONS = 1000;
const sections = Array.from(
  { length: SECTIONS },
  (_, i) => `## S${i}\n\n\`\`\`lua\nvar.n = (var.n or 0) + 1\n\`\`\``,
);
const prompt = await parseForTest(promptText(`# Preludes\n\n${sections.join("\n\n")}\n`));
const engine = await loadEngine();

const port: EffectPort = {
  storeOp: () => Promise.reject(new Error("no store in this bench")),
  emit: () => undefined,
};

const none: RunCatalog = { tools: [], packs: null, preludes: [], dropped: [], models: [] };
const userInput: RunCatalog = {
  ...none,
  preludes: [{ pack: "user-input", source: USER_INPUT_PRELUDE }],
};

async function walk(catalog: RunCatalog): Promise<void> {
  const result = await engine.run(prompt, { effects: port, catalog });
  if (result.outcome !== "succeeded" || result.var.n !== SECTIONS) {
    throw new Error(`the bench walk did not succeed: ${JSON.stringify(result).slice(0, 200)}`);
  }
}

async function msOf(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const perSection = (ms: number): string => `${((ms * 1000) / SECTIONS).toFixed(1)} µs`;

function report(label: string, bare: number, prelude: number): string {
  const cost = ((prelude - bare) * 1000) / SECTIONS;
  return `${label}: no prelude ${perSection(bare)}, user-input prelude ${perSection(prelude)} per section; install ≈ ${cost.toFixed(1)} µs per VM (${(prelude / bare).toFixed(2)}×)`;
}

await walk(none);
await walk(userInput);
const bareMs: number[] = [];
const preludeMs: number[] = [];
for (let round = 0; round < 9; round++) {
  bareMs.push(await msOf(() => walk(none)));
  preludeMs.push(await msOf(() => walk(userInput)));
}
console.log(
  [
    report("median", median(bareMs), median(preludeMs)),
    report("min", Math.min(...bareMs), Math.min(...preludeMs)),
  ].join("\n"),
);

describe("Pack preludes", () => {
  bench(`${SECTIONS} sections, no prelude`, () => walk(none), { iterations: 5 });
  bench(`${SECTIONS} sections, user-input prelude`, () => walk(userInput), { iterations: 5 });
});
