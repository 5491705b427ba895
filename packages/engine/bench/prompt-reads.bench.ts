import type { EffectPort } from "@runvil/protocol";
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
import { parseForTest, promptText } from "../src/test-support/parse";
import { installTools } from "../src/tools/install-tools";
import { Chain } from "../src/walk/chain";
import { Entry } from "../src/walk/entry";

/**
 * What the `prompt` global costs: a read of a short section with one placeholder
 * (`prompt.section`), of a five-item list (`prompt.list`), the same text read through `prose`,
 * and an empty loop iteration, each a block looping READS times in the same run; and what
 * installLazyGlobals (the tools core, `prompt` and the other lazy globals) adds to a section VM's
 * setup, against installTools alone. Prints the medians of paired rounds in CPU
 * time (per read, minus the empty loop) before vitest's tables.
 */

const READS = 2000;
const TEXT = "Write about {{ var.topic }} in short sentences.";
const LIST = "- one\n- two {{ var.topic }}\n- three\n- four\n- five";
const block = (before: string, body: string): string =>
  promptText(
    `# Bench\n\n## Loop\n\n\`\`\`lua\nvar.topic = 'birds'\n\`\`\`\n\n${before}\n\n\`\`\`lua\nfor i = 1, ${READS} do\n  ${body}\nend\nreturn 'done'\n\`\`\`\n\n### S\n\n${TEXT}\n\n### L\n\n${LIST}\n`,
  );
const [sectionPrompt, listPrompt, prosePrompt, emptyPrompt] = await Promise.all([
  parseForTest(block("", "local _ = prompt.section('### S')")),
  parseForTest(block("", "local _ = prompt.list('### L')")),
  parseForTest(block(TEXT, "local _ = prose")),
  parseForTest(block("", "local _ = i")),
]);
const engine = await loadEngine();
const factory = await loadLuaVmFactory();
factory.warmUp();

const port: EffectPort = {
  storeOp: (): Promise<never> => Promise.reject(new Error("no store in this bench")),
  emit: () => undefined,
};

async function runOnce(prompt: typeof emptyPrompt): Promise<void> {
  const result = await engine.run(prompt, { effects: port });
  if (result.outcome !== "succeeded") {
    throw new Error(`the bench run did not succeed: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

/** CPU milliseconds of this process since `start` (steadier than wall time on a shared machine). */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function msOf(prompt: typeof emptyPrompt): Promise<number> {
  const start = process.cpuUsage();
  await runOnce(prompt);
  return cpuMsSince(start);
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

for (const prompt of [sectionPrompt, listPrompt, prosePrompt, emptyPrompt]) await runOnce(prompt);
const rounds = {
  section: [] as number[],
  list: [] as number[],
  prose: [] as number[],
  empty: [] as number[],
};
for (let round = 0; round < 9; round++) {
  rounds.section.push(await msOf(sectionPrompt));
  rounds.list.push(await msOf(listPrompt));
  rounds.prose.push(await msOf(prosePrompt));
  rounds.empty.push(await msOf(emptyPrompt));
}

// installLazyGlobals per VM: VMs set up to its prerequisites, with it, with installTools alone, without.
const ctx = new RunContext(
  emptyPrompt,
  resolveRunOptions({ effects: port }),
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
  // Rotate the order so no install always runs first in a round.
  const order: Install[] = ["none", "lazy", "tools"];
  for (let k = 0; k < round % 3; k++) order.push(order.shift() ?? "none");
  for (const install of order) {
    const start = process.cpuUsage();
    setUpVms(install);
    installRounds[install].push(cpuMsSince(start));
  }
}
const installUs = (install: Install): number =>
  ((median(installRounds[install]) - median(installRounds.none)) * 1000) / VMS;
const setupUs = (median(installRounds.none) * 1000) / VMS;

const perRead = (ms: number[]): number => ((median(ms) - median(rounds.empty)) * 1000) / READS;
console.log(
  [
    `prompt.section (one placeholder): ${perRead(rounds.section).toFixed(2)} µs per read`,
    `prompt.list (five items, one placeholder): ${perRead(rounds.list).toFixed(2)} µs per read`,
    `prose (the same text): ${perRead(rounds.prose).toFixed(2)} µs per read`,
    `installLazyGlobals per VM: ${installUs("lazy").toFixed(1)} µs, installTools alone: ${installUs("tools").toFixed(1)} µs (VM create + errors, guard, pairs, json + close: ${setupUs.toFixed(1)} µs)`,
  ].join("\n"),
);

describe("prompt reads", () => {
  bench(`${READS} prompt.section`, () => runOnce(sectionPrompt), { iterations: 5 });
  bench(`${READS} prompt.list`, () => runOnce(listPrompt), { iterations: 5 });
  bench(`${READS} prose reads`, () => runOnce(prosePrompt), { iterations: 5 });
  bench(`empty loop of ${READS}`, () => runOnce(emptyPrompt), { iterations: 5 });
});
