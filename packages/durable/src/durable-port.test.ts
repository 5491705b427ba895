import { MemoryStore, readAllFiles } from "@runvil/harness";
import type { RunResult } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import type { DurableError } from "./durable-error";
import { DurablePort } from "./durable-port";
import { planRecovery } from "./recovery-plan";
import { replayPositions } from "./replay-positions";
import { FANOUT_PROMPT } from "./test-support/fanout-prompt";
import { MemorySteps } from "./test-support/memory-steps";
import { prng, ScriptedPort } from "./test-support/scripted-port";
import { lua, promptText, runOn } from "./test-support/test-execute";

/**
 * The randomized-completion test (docs/design/determinism.md) over the durable port, with DBOS's
 * position-matched steps in memory: each run is cut at a random effect (its execution hangs
 * there, as a killed process would stop), then executed again from its record with other random
 * delays; results, store files and effect ids must equal an uninterrupted run's, and no effect
 * whose step completed may be performed again.
 */
const RUNS = Number(process.env.RUNVIL_DURABLE_RUNS ?? 12);
const INPUT = { args: "", seed: 3, startedAt: Date.UTC(2026, 11, 2) };

interface Execution {
  readonly result: Promise<RunResult>;
  readonly port: DurablePort;
  readonly inner: ScriptedPort;
  readonly cancel: AbortController;
}

/** One execution over `steps`' record; with `hangAfter`, effects past that many never answer. */
function execute(
  steps: MemorySteps,
  store: MemoryStore,
  options: {
    prompt?: string;
    delaySeed: number;
    hangAfter?: number;
    onDivergence?: (e: DurableError) => void;
  },
): Execution {
  const replayed = replayPositions("r", planRecovery("r", steps.steps()), steps);
  let performed = 0;
  const hang = new Promise<never>(() => undefined);
  const inner = new ScriptedPort({
    store,
    delaySeed: options.delaySeed,
    onPerform: () => {
      performed += 1;
      if (options.hangAfter !== undefined && performed > options.hangAfter) return hang;
    },
  });
  const port = new DurablePort({
    runId: "r",
    inner,
    steps,
    replayed,
    askTools: new Set(["user-input/ask"]),
    onDivergence: options.onDivergence ?? (() => undefined),
  });
  const cancel = new AbortController();
  const result = replayed.settled.then(() =>
    runOn(port, options.prompt ?? FANOUT_PROMPT, INPUT, cancel.signal),
  );
  return { result, port, inner, cancel };
}

describe("the durable port under position-matched steps", () => {
  it(`recovers ${RUNS} runs cut at random effects to the result, store and effect ids of an uninterrupted run`, async () => {
    const referenceStore = new MemoryStore();
    const reference = execute(new MemorySteps(), referenceStore, { delaySeed: 1 });
    const expected = await reference.result;
    expect(expected.outcome).toBe("succeeded");
    const expectedFiles = await readAllFiles(referenceStore);
    const expectedEffects = [...reference.inner.performed].map((p) => p.split(" ")[1]).sort();
    const random = prng(99);

    for (let run = 0; run < RUNS; run += 1) {
      const steps = new MemorySteps();
      const store = new MemoryStore();
      const cutAt = 5 + Math.floor(random() * (expectedEffects.length - 10));
      const first = execute(steps, store, { delaySeed: 100 + run, hangAfter: cutAt });
      await until(() => first.inner.performed.length > cutAt);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const recordedBefore = new Set(
        steps.steps().flatMap((s) => (s.name.startsWith("runvil:") ? [s.name.slice(7)] : [])),
      );
      steps.restart();
      first.cancel.abort();
      const second = execute(steps, store, { delaySeed: 200 + run });
      const result = await second.result;
      expect(result).toEqual(expected);
      expect(await readAllFiles(store)).toEqual(expectedFiles);
      const all = [
        ...recordedBefore,
        ...second.inner.performed.map((p) => p.split(" ")[1] ?? ""),
      ].sort();
      expect(all).toEqual(expectedEffects);
      expect(second.port.counts()).toMatchObject({ recorded: recordedBefore.size });
      // No completed step performed again.
      const again = second.inner.performed.filter((p) => recordedBefore.has(p.split(" ")[1] ?? ""));
      expect(again).toEqual([]);
    }
  });

  it("reports a prompt that changed under a recorded run as a divergence naming the effect", async () => {
    const steps = new MemorySteps();
    const prompt = (value: string) =>
      promptText(
        ["# D", "## Main", lua(`return tools.call('fix/echo', { value = '${value}' })`)].join(
          "\n\n",
        ),
      );
    const first = await execute(steps, new MemoryStore(), { prompt: prompt("one"), delaySeed: 1 })
      .result;
    expect(first).toMatchObject({ outcome: "succeeded", result: "echo(one)" });
    steps.restart();
    const diverged: DurableError[] = [];
    const again = execute(steps, new MemoryStore(), {
      prompt: prompt("two"),
      delaySeed: 1,
      onDivergence: (e) => diverged.push(e),
    });
    await again.result;
    expect(diverged).toHaveLength(1);
    expect(again.port.divergence?.reason).toBe("divergence");
    expect(again.port.divergence?.message).toMatch(
      /^run r: effect [\d.]+\/1 changed since it was recorded \(the prompt changed under the run\)\n {2}recorded: .*"value":"one".*\n {2}now: {6}.*"value":"two"/,
    );
    expect(again.inner.performed).toEqual([]);
  });

  it("recovers a run that died while an ask's marker was in flight but its recv's sleep was recorded", async () => {
    const steps = new MemorySteps();
    const asking = promptText(
      ["# Ask", "## Main", lua("return 'got ' .. tools.call('user-input/ask', {})")].join("\n\n"),
    );
    // The marker (position 0) and the recv (1) never recorded; the recv's timeout sleep (2) did.
    steps.recorded.set(2, { functionID: 2, name: "DBOS.sleep", output: 1 });
    const store = new MemoryStore();
    const again = execute(steps, store, { prompt: asking, delaySeed: 1 });
    const asks = () => steps.steps().flatMap((s) => (s.name.startsWith("runvil.ask:") ? [s] : []));
    await until(() => asks().length === 1);
    expect(asks()[0]?.functionID).toBe(3);
    expect(
      steps
        .steps()
        .map((s) => s.name)
        .slice(0, 3),
    ).toEqual(["runvil.gap", "runvil.gap", "DBOS.sleep"]);
    steps.send(asks()[0]?.name.slice(11) ?? "", { text: "yes" });
    expect(await again.result).toMatchObject({ outcome: "succeeded", result: "got yes" });
  });

  it("waits on an ask again after a restart and takes the answer sent meanwhile", async () => {
    const steps = new MemorySteps();
    const asking = promptText(
      [
        "# Ask",
        "## Main",
        lua(
          "local a = tools.call('user-input/ask', {})\nstore.write('a.txt', a)\nlocal b = tools.call('user-input/ask', {})\nreturn a .. '+' .. b",
        ),
      ].join("\n\n"),
    );
    const store = new MemoryStore();
    const first = execute(steps, store, { prompt: asking, delaySeed: 1 });
    const asks = () =>
      steps.steps().flatMap((s) => (s.name.startsWith("runvil.ask:") ? [s.name.slice(11)] : []));
    await until(() => asks().length === 1);
    const [firstAsk = ""] = asks();
    steps.send(firstAsk, { text: "yes" });
    await until(() => asks().length === 2);
    const secondAsk = asks()[1] ?? "";
    expect(secondAsk).not.toBe(firstAsk);
    // The worker dies while the run waits; the answer arrives before a worker takes the run again.
    steps.restart();
    first.cancel.abort();
    steps.send(secondAsk, { text: "no" });
    const second = execute(steps, store, { prompt: asking, delaySeed: 2 });
    expect(await second.result).toMatchObject({ outcome: "succeeded", result: "yes+no" });
    expect(second.port.counts()).toEqual({ recorded: 1, live: 0, asks: 2 });
    expect(second.inner.performed).toEqual([]);
  });
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
