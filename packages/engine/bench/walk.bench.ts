import { performance } from "node:perf_hooks";
import type { EffectPort } from "@runvil/protocol";
import { bench, describe } from "vitest";
import { loadLuaVmFactory } from "../src/lua";
import { loadEngine } from "../src/run/engine";
import { parseForTest, promptText } from "../src/test-support/parse";

/**
 * The walk's cost per section entry: a prompt of 1,000 small sections (one block each, one var
 * write), run end to end with a port that drops events, against creating and closing a bare VM
 * the same number of times in the same run. Goal: ≤ 0.2 ms per entry. Before vitest's tables,
 * prints the medians of paired rounds.
 */

const SECTIONS = 1000;
const sections = Array.from(
  { length: SECTIONS },
  (_, i) => `## S${i}\n\n\`\`\`lua\nvar.n = (var.n or 0) + 1\n\`\`\``,
);
const prompt = await parseForTest(promptText(`# Walk\n\n${sections.join("\n\n")}\n`));
const engine = await loadEngine();
const factory = await loadLuaVmFactory();
factory.warmUp();

const port: EffectPort = {
  storeOp: () => Promise.reject(new Error("no store in this bench")),
  emit: () => undefined,
};

async function walk(): Promise<void> {
  const result = await engine.run(prompt, { effects: port });
  if (result.outcome !== "succeeded" || result.var.n !== SECTIONS) {
    throw new Error(`the bench walk did not succeed: ${JSON.stringify(result).slice(0, 200)}`);
  }
}

function bareVms(): void {
  for (let i = 0; i < SECTIONS; i++) factory.create().close();
}

async function msOf(work: () => Promise<void> | void): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

await walk();
const walkMs: number[] = [];
const bareMs: number[] = [];
for (let round = 0; round < 7; round++) {
  walkMs.push(await msOf(walk));
  bareMs.push(await msOf(bareVms));
}
const perEntry = (median(walkMs) * 1000) / SECTIONS;
const perBare = (median(bareMs) * 1000) / SECTIONS;
console.log(
  [
    `walk of ${SECTIONS} sections: ${median(walkMs).toFixed(1)} ms`,
    `per entry: ${perEntry.toFixed(1)} µs (goal ≤ 200 µs)`,
    `bare VM create + close: ${perBare.toFixed(1)} µs`,
    `entry / bare VM: ${(perEntry / perBare).toFixed(1)}×`,
  ].join("\n"),
);

describe("section walk", () => {
  bench(`walk of ${SECTIONS} sections`, walk, { iterations: 5 });
  bench(`${SECTIONS} bare VMs created and closed`, bareVms, { iterations: 5 });
});
