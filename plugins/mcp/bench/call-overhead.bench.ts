import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { loadEngine } from "@runvil/engine";
import { MemoryStore, RunPort } from "@runvil/harness";
import { createHost, toolDispatcherFor } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import { testToolContext } from "@runvil/sdk/testing";
import { afterAll, bench, describe } from "vitest";
import { mcpPlugin } from "../src/plugin";
import { referenceServer } from "../src/test-support/servers";

/**
 * The cost Runvil adds to an MCP tool call (docs/design/mcp.md), in one run against one
 * server-everything process per path, its `echo` tool over stdio:
 *
 * - direct: `client.callTool` of the official client, nothing else (the reference);
 * - Pack tool: the plugin's tool `run` (callTool, the output built, the failure checks);
 * - dispatcher: the Harness's ToolDispatcher as a run uses it (argument schema check, output
 *   kind and trust, the record the Engine gets);
 * - Lua: a whole Engine run whose block calls `tools.call('everything/echo', …)` CALLS times
 *   (the envelope included), per call, minus the same run with a store.exists in place of the
 *   call (the Lua loop and one suspension, which every effect pays).
 *
 * Before vitest's tables, prints the medians and minimums of paired rounds (alternating order),
 * per call, and the median over rounds of each round's own ratio and difference to that round's
 * direct call (paired: a slow moment of the machine hits both sides of a pair).
 */

const CALLS = 50;
const ROUNDS = 15;
const script = referenceServer("everything");
const args = { message: "bench" };

const direct = new Client({ name: "bench", version: "0" });
await direct.connect(
  new StdioClientTransport({ command: process.execPath, args: [script, "stdio"], stderr: "pipe" }),
);
const host = await createHost({
  plugins: [
    {
      plugin: mcpPlugin,
      options: {
        servers: [{ pack: "ref/everything", command: process.execPath, args: [script, "stdio"] }],
      },
    },
  ],
});
afterAll(async () => {
  await direct.close();
  await host.close();
});

const parse = createPromptParser(await loadLuaRuntime());
const engine = await loadEngine();
function promptOf(body: string) {
  const parsed = parse(
    `---\nname: bench\ndescription: bench\nruntime: 0\nuses: [ref/everything]\n---\n\n# Bench\n\n## Calls\n\n\`\`\`lua\nfor i = 1, ${CALLS} do ${body} end\nreturn 'done'\n\`\`\`\n`.replace(
      "runtime",
      "runvil",
    ),
    { path: "bench.md" },
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.prompt;
}
const callPrompt = promptOf("tools.call('everything/echo', { message = 'bench' })");
const storePrompt = promptOf("store.exists('x')");
const prepared = host.prepare(callPrompt);
if (!prepared.ok) throw new Error(prepared.notice);
const run = prepared.run;
const tool = run.tools.get("everything/echo");
if (tool === undefined) throw new Error("no everything/echo");
const ctx = testToolContext({ toolId: "everything/echo" });
const store = new MemoryStore();
const dispatcher = toolDispatcherFor(run, { store });
const origin = { execution: "bench", section: "Calls", chain: "0", entry: "1" };
let effect = 0;

const once = {
  direct: async () => {
    await direct.callTool({ name: "echo", arguments: args });
  },
  pack: async () => {
    await tool.run(args, ctx);
  },
  dispatcher: async () => {
    effect += 1;
    await dispatcher.call({
      tool: "everything/echo",
      name: "everything_echo",
      arguments: args,
      caller: "script",
      callId: `c${effect}`,
      origin,
      effect: `1/${effect}`,
      signal: new AbortController().signal,
    } as never);
  },
};

async function runLua(prompt: typeof callPrompt): Promise<void> {
  const port = new RunPort(new MemoryStore(), { tools: toolDispatcherFor(run, { store }) });
  const result = await engine.run(prompt, { effects: port, catalog: run.catalog });
  if (result.outcome !== "succeeded") throw new Error(JSON.stringify(result).slice(0, 300));
}

async function perCall(action: () => Promise<void>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await action();
  return ((performance.now() - start) * 1000) / CALLS;
}

async function perLuaCall(prompt: typeof callPrompt): Promise<number> {
  const start = performance.now();
  await runLua(prompt);
  return ((performance.now() - start) * 1000) / CALLS;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

type Path = "direct" | "pack" | "dispatcher" | "lua" | "luaStore";
const paths: Record<Path, () => Promise<number>> = {
  direct: () => perCall(once.direct),
  pack: () => perCall(once.pack),
  dispatcher: () => perCall(once.dispatcher),
  lua: () => perLuaCall(callPrompt),
  luaStore: () => perLuaCall(storePrompt),
};
const order = Object.keys(paths) as Path[];
const times = Object.fromEntries(order.map((path) => [path, [] as number[]])) as Record<
  Path,
  number[]
>;
for (let round = 0; round <= ROUNDS; round++) {
  // Alternate the order, so a slow moment of the machine does not always hit the same path.
  for (const path of round % 2 === 0 ? order : [...order].reverse()) {
    const value = await paths[path]();
    if (round > 0) times[path].push(value); // round 0 warms up
  }
}
const min = (values: number[]): number => Math.min(...values);
const d = median(times.direct);
const dMin = min(times.direct);
/** The median over rounds of each round's `path` against its own direct time. */
const paired = (path: Path): { ratio: number; extra: number } => ({
  ratio: median(times[path].map((value, round) => value / (times.direct[round] ?? Number.NaN))),
  extra: median(times[path].map((value, round) => value - (times.direct[round] ?? Number.NaN))),
});
const line = (label: string, path: Path): string => {
  const m = median(times[path]);
  const low = min(times[path]);
  const pair = paired(path);
  return `${label}: median ${m.toFixed(0)} µs per call (${(m / d).toFixed(2)}× direct), minimum ${low.toFixed(0)} µs (${(low / dMin).toFixed(2)}×, +${(low - dMin).toFixed(0)} µs); paired ${pair.ratio.toFixed(2)}×, +${pair.extra.toFixed(0)} µs`;
};
console.log(
  [
    `MCP echo over stdio, ${ROUNDS} paired rounds of ${CALLS} calls:`,
    `direct client.callTool: median ${d.toFixed(0)} µs per call, minimum ${dMin.toFixed(0)} µs`,
    line("Pack tool run", "pack"),
    line("Harness ToolDispatcher", "dispatcher"),
    line("Lua tools.call in an Engine run", "lua"),
    `  (the same run with store.exists instead: median ${median(times.luaStore).toFixed(0)} µs per iteration)`,
  ].join("\n"),
);

describe(`MCP echo over stdio, ${CALLS} sequential calls`, () => {
  bench("direct client.callTool", () => perCall(once.direct).then(() => undefined), {
    iterations: 5,
  });
  bench("the Pack's tool run", () => perCall(once.pack).then(() => undefined), { iterations: 5 });
  bench("the Harness's ToolDispatcher", () => perCall(once.dispatcher).then(() => undefined), {
    iterations: 5,
  });
  bench("tools.call in an Engine run", () => runLua(callPrompt), { iterations: 5 });
});
