import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import type {
  CatalogTool,
  EffectPort,
  RunCatalog,
  ToolCallOutput,
  ToolCallRequest,
} from "@runvil/protocol";
import { bench, describe } from "vitest";
import { loadLuaVmFactory } from "../src/lua";
import { loadEngine } from "../src/run/engine";
import { parseForTest, promptText } from "../src/test-support/parse";

/**
 * Fanout and task costs (docs/design/fanout.md, issue 13):
 * - a 1,000-arm fanout of trivial arms, whole (goal ≤ 0.5 s), against 1,000 sequential `call`s
 *   of the same section measured in the same run (the per-arm cost over a call's);
 * - the memory of 10,000 live tasks waiting on a scripted tool reply: spawned from one entry
 *   (at most 256 run, the rest wait for a slot) and all running (40 tasks of 250 each).
 * Before vitest's tables, prints the medians of paired rounds and the memory per task.
 */

const ARMS = 1000;
const engine = await loadEngine();
const factory = await loadLuaVmFactory();
factory.warmUp();

const quiet: EffectPort = {
  storeOp: () => Promise.reject(new Error("no store in this bench")),
  emit: () => undefined,
};

const worker = "### Worker\n\n```lua\nreturn item\n```";
const fanoutPrompt = await parseForTest(
  promptText(
    `# Fanout\n\n## Main\n\n\`\`\`lua\ntasks.concurrency(256)\nlocal t = {}\nfor i = 1, ${ARMS} do t[i] = i end\nlocal r = tasks.fanout('### Worker', t)\nreturn #r .. r[${ARMS}].text\n\`\`\`\n\n${worker}\n`,
  ),
);
const defaultFanoutPrompt = await parseForTest(
  promptText(
    `# Fanout\n\n## Main\n\n\`\`\`lua\nlocal t = {}\nfor i = 1, ${ARMS} do t[i] = i end\nlocal r = tasks.fanout('### Worker', t)\nreturn #r .. r[${ARMS}].text\n\`\`\`\n\n${worker}\n`,
  ),
);
const callsPrompt = await parseForTest(
  promptText(
    `# Calls\n\n## Main\n\n\`\`\`lua\nlocal last\nfor i = 1, ${ARMS} do last = call('### Worker', tostring(i)) end\nreturn '${ARMS}' .. last\n\`\`\`\n\n### Worker\n\n\`\`\`lua\nreturn args\n\`\`\`\n`,
  ),
);

async function runExpecting(prompt: typeof fanoutPrompt, expected: string): Promise<void> {
  const result = await engine.run(prompt, { effects: quiet });
  if (result.outcome !== "succeeded" || result.result !== expected) {
    throw new Error(`the bench run did not succeed: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

const fanout = () => runExpecting(fanoutPrompt, `${ARMS}${ARMS}`);
const fanoutDefault = () => runExpecting(defaultFanoutPrompt, `${ARMS}${ARMS}`);
const calls = () => runExpecting(callsPrompt, `${ARMS}${ARMS}`);

async function msOf(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

await fanout();
await calls();
const fanoutMs: number[] = [];
const defaultMs: number[] = [];
const callMs: number[] = [];
for (let round = 0; round < 7; round++) {
  fanoutMs.push(await msOf(fanout));
  defaultMs.push(await msOf(fanoutDefault));
  callMs.push(await msOf(calls));
}

// Memory of live tasks waiting on a scripted tool reply.
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const HOLD: CatalogTool = {
  id: "fix/hold",
  pack: "fix",
  wireName: "fix_hold",
  description: "Answers when the bench says so.",
  parameters: { type: "object", properties: {} },
  structured: false,
};
const catalog: RunCatalog = { tools: [HOLD], packs: null, preludes: [], dropped: [], models: [] };

/**
 * Runs `prompt` until `waiting` tool calls are held and `tasks` tasks were started, measures,
 * then answers every call.
 */
async function liveTaskMemory(
  prompt: typeof fanoutPrompt,
  waiting: number,
  tasks: number,
): Promise<{ heap: number; wasm: number; vms: number }> {
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const wasmBefore = factory.wasmMemoryBytes;
  const held: (() => void)[] = [];
  let answering = false;
  let started = 0;
  let reached: () => void = () => undefined;
  const full = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const port: EffectPort = {
    ...quiet,
    emit: (event) => {
      if (event.type !== "task_started") return;
      started++;
      if (held.length === waiting && started === tasks) reached();
    },
    toolCall: (_request: ToolCallRequest) =>
      new Promise<ToolCallOutput>((resolve) => {
        const answer = () => resolve({ text: "ok", trusted: true });
        if (answering) return answer();
        held.push(answer);
        if (held.length === waiting && started === tasks) reached();
      }),
  };
  const run = engine.run(prompt, { effects: port, catalog });
  const ended = run.then((result) => {
    throw new Error(`the live-task run ended early: ${JSON.stringify(result).slice(0, 300)}`);
  });
  await Promise.race([full, ended]);
  ended.catch(() => undefined);
  gc();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const wasm = factory.wasmMemoryBytes - wasmBefore;
  const vms = factory.openVmCount;
  answering = true; // the tasks that start later answer at once
  for (const answer of held) answer();
  const result = await run;
  if (result.outcome !== "succeeded") {
    throw new Error(`the live-task run did not succeed: ${JSON.stringify(result).slice(0, 300)}`);
  }
  return { heap, wasm, vms };
}

const waitBlock = "tools.call('fix/hold')\nreturn 'done'";
const oneEntry = await parseForTest(
  promptText(
    `# Live\n\n## Main\n\n\`\`\`lua\ntasks.concurrency(256)\nfor i = 1, 10000 do tasks.spawn('### Wait', i) end\n\`\`\`\n\n### Wait\n\n\`\`\`lua\n${waitBlock}\n\`\`\`\n`,
  ),
);
const allRunning = await parseForTest(
  promptText(
    `# Live\n\n## Main\n\n\`\`\`lua\ntasks.concurrency(40)\nfor i = 1, 40 do tasks.spawn('### Group', i) end\n\`\`\`\n\n### Group\n\n\`\`\`lua\ntasks.concurrency(250)\nfor i = 1, 250 do tasks.spawn('#### Wait', i) end\n\`\`\`\n\n#### Wait\n\n\`\`\`lua\n${waitBlock}\n\`\`\`\n`,
  ),
);
const spawned = await liveTaskMemory(oneEntry, 256, 10_000);
const running = await liveTaskMemory(allRunning, 10_000, 10_040);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

const perArm = (median(fanoutMs) * 1000) / ARMS;
const perCall = (median(callMs) * 1000) / ARMS;
console.log(
  [
    `fanout of ${ARMS} trivial arms, concurrency 256: ${median(fanoutMs).toFixed(1)} ms (goal ≤ 500 ms)`,
    `fanout of ${ARMS} trivial arms, default concurrency 8: ${median(defaultMs).toFixed(1)} ms`,
    `${ARMS} sequential calls of the same section: ${median(callMs).toFixed(1)} ms`,
    `per arm: ${perArm.toFixed(1)} µs, per call: ${perCall.toFixed(1)} µs, arm / call: ${(perArm / perCall).toFixed(2)}×`,
    `10,000 tasks spawned by one entry (256 running, the rest waiting): heap ${kib(spawned.heap / 10_000)} KiB per task, ${spawned.vms} VMs open`,
    `10,000 tasks all running, each waiting on a tool reply: heap ${kib(running.heap / 10_000)} KiB per task, wasm +${kib(running.wasm / 10_000)} KiB per task, ${running.vms} VMs open`,
  ].join("\n"),
);

describe("fanout", () => {
  bench(`fanout of ${ARMS} trivial arms (concurrency 256)`, fanout, { iterations: 5 });
  bench(`fanout of ${ARMS} trivial arms (default concurrency 8)`, fanoutDefault, { iterations: 5 });
  bench(`${ARMS} sequential calls`, calls, { iterations: 5 });
});
