import { MemoryStore, RunPort, readAllFiles } from "@runvil/harness";
import { createHost, toolDispatcherFor } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import type { RunEvent, RunResult } from "@runvil/protocol";
import { definePack, definePlugin } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { loadEngine } from "../run/engine";

/**
 * Isolation (issue 11, "Proving it"): 100 runs of one prompt at once in one process, on one
 * Host and one Engine, each with its own store, args and seed. Their store operations and
 * tool calls wait at different times, so the runs interleave; no run may see another's store,
 * `var`, events, random numbers or outcome. Some runs fail and some are cancelled, so that
 * outcomes do not cross either.
 */

const RUNS = 100;

const PROMPT = `---
name: iso
description: Writes, lists, reads and echoes under its own name.
runvil: 0
uses: [acme/echo]
---

# Iso

\`\`\`lua
var.me = args
var.roll = math.random(1, 1000000000)
\`\`\`

## Work

\`\`\`lua
local rolls = {}
for i = 1, 5 do
  rolls[i] = math.random(1, 1000000000)
  store.write(args .. '/' .. i .. '.txt', args .. ':' .. i)
  var.echo = tools.call('echo/say', { text = args .. '#' .. i })
  log(args .. ' step ' .. i .. ' sees ' .. #store.glob('**'))
end
if args:match('-fail$') then error('failing ' .. args) end
var.files = store.glob('**')
var.rolls = rolls
return args .. ':' .. var.roll .. ':' .. store.read(args .. '/5.txt')
\`\`\`
`;

/** A Pack whose tool answers its text after a delay that depends on the text. */
const echoPlugin = definePlugin({
  name: "acme-echo",
  setup(api) {
    api.addPack(
      definePack({
        vendor: "acme",
        name: "echo",
        description: "Echoes late.",
        tools: [
          {
            id: "echo/say",
            description: "Echoes its text.",
            parameters: {
              type: "object",
              properties: { text: { type: "string" } },
              required: ["text"],
            },
            trust: "trusted",
            run: (args: { text: string }) =>
              new Promise<string>((resolve) => {
                const delay = [...args.text].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 7;
                setTimeout(() => resolve(`echo ${args.text}`), delay);
              }),
          },
        ],
      }),
    );
  },
});

/** The name of run `i`: every 10th fails, every 7th is cancelled once it has started. */
function nameOf(i: number): string {
  if (i % 10 === 3) return `run-${i}-fail`;
  if (i % 7 === 5) return `run-${i}-cancel`;
  return `run-${i}`;
}

describe("isolation: 100 concurrent runs in one process", () => {
  it("keeps every run's store, var, events, randomness and outcome its own", async () => {
    const [engine, lua] = await Promise.all([loadEngine(), loadLuaRuntime()]);
    const parsed = createPromptParser(lua)(PROMPT);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const prompt = parsed.prompt;
    const host = await createHost({ plugins: [{ plugin: echoPlugin }] });
    /** Which run started each tool call, across all runs, in order. */
    const callOrder: number[] = [];

    const start = (i: number, name: string) => {
      const prepared = host.prepare(prompt);
      if (!prepared.ok) throw new Error(prepared.notice);
      const store = new MemoryStore();
      const events: RunEvent[] = [];
      const controller = new AbortController();
      const port = new RunPort(store, {
        onEvent: (event) => {
          events.push(event);
          if (event.type === "tool_call_started") callOrder.push(i);
          // A cancelled run is cancelled in the middle of its work, while the others go on.
          if (name.endsWith("-cancel") && event.type === "tool_call_started") controller.abort();
        },
        tools: toolDispatcherFor(prepared.run, { store }),
      });
      const done = engine.run(prompt, {
        effects: port,
        args: name,
        seed: BigInt(i),
        catalog: prepared.run.catalog,
        signal: controller.signal,
      });
      return { name, store, events, done };
    };

    const runs = Array.from({ length: RUNS }, (_, i) => start(i, nameOf(i)));
    const results: RunResult[] = await Promise.all(runs.map((run) => run.done));
    // The runs interleaved: the first 100 tool calls came from most of the runs.
    expect(new Set(callOrder.slice(0, RUNS)).size).toBeGreaterThan(RUNS / 2);
    // The same seed alone gives the same roll: no run's random numbers came from another's.
    const alone = start(0, "run-0");
    const aloneResult = await alone.done;

    for (const [i, run] of runs.entries()) {
      const result = results[i];
      const name = run.name;
      const files = await readAllFiles(run.store);
      for (const [path, content] of Object.entries(files)) {
        expect(path.startsWith(`${name}/`)).toBe(true);
        expect(content.startsWith(`${name}:`)).toBe(true);
      }
      const checkpoints = run.events.flatMap((e) =>
        e.type === "lua_checkpoint" ? [e.message] : [],
      );
      for (const message of checkpoints) expect(message.startsWith(`${name} step `)).toBe(true);
      expect(run.events.map((e) => e.seq)).toEqual(run.events.map((_, n) => n + 1));
      for (const event of run.events) {
        if (event.type === "tool_result") expect(String(event.content)).toMatch(`echo ${name}#`);
      }
      expect(run.events.at(-1)).toMatchObject({ type: "run_finished", outcome: result?.outcome });

      if (name.endsWith("-cancel")) {
        expect(result).toMatchObject({ outcome: "cancelled", var: { me: name } });
        expect(checkpoints.length).toBeLessThan(5);
      } else if (name.endsWith("-fail")) {
        expect(result?.outcome).toBe("failed");
        if (result?.outcome === "failed") expect(result.error.message).toContain(`failing ${name}`);
        // A failed section's var is not read back: the H1 pass's is the last.
        expect(Object.keys(result?.var as object)).toEqual(["me", "roll"]);
        expect(result?.var).toMatchObject({ me: name });
        expect(Object.keys(files)).toHaveLength(5);
      } else {
        expect(result?.outcome).toBe("succeeded");
        if (result?.outcome !== "succeeded") continue;
        const roll = (result.var as { roll: number }).roll;
        expect(result.result).toBe(`${name}:${roll}:${name}:5`);
        expect(result.var).toEqual({
          me: name,
          roll,
          echo: `echo ${name}#5`,
          files: [1, 2, 3, 4, 5].map((n) => `${name}/${n}.txt`),
          rolls: (aloneResult.var as { rolls: number[] }).rolls,
        });
        expect(checkpoints).toEqual([1, 2, 3, 4, 5].map((n) => `${name} step ${n} sees ${n}`));
      }
    }
    expect(aloneResult).toEqual(results[0]);
    // Every VM has its own generator (lua-vm.md: seeded at creation), so the runs, which drew
    // their numbers interleaved, drew exactly what a run alone draws.
    const rolls = new Set(results.map((r) => (r.var as { roll?: number }).roll));
    expect(rolls).toEqual(new Set([(aloneResult.var as { roll: number }).roll]));
  });
});
