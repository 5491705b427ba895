import { MemoryStore } from "@runvil/harness";
import { afterAll, bench, describe } from "vitest";
import { type DurableWorker, launchDurableWorker } from "../src/durable-worker";
import { ScriptedPort } from "../src/test-support/scripted-port";
import { freshDatabase, skipReason } from "../src/test-support/test-database";
import { lua, promptText, runOn } from "../src/test-support/test-execute";

/**
 * What parking buys (docs/design/durable.md "Long waits"): FRESH runs (a tool call and a store
 * write each) through one worker of concurrency 2, measured in one process, scenarios
 * interleaved over ROUNDS rounds, each on a fresh database:
 * - alone: nothing else on the queue;
 * - beside parked asks: ASKS runs waiting on an ask first, parked at once (`parkAfterMs: 0`);
 * - parking off: the same asks, `parkAfterMs: "never"`: they hold both slots, so the fresh
 *   runs wait; measured up to STUCK_MS, reporting how many finished.
 * Prints medians and the ratio to "alone". Needs RUNVIL_TEST_PG_URL.
 */
const FRESH = 20;
const ASKS = 10;
const ROUNDS = 3;
const STUCK_MS = 10_000;
/** DBOS's dispatcher takes at most the free slots per poll (1 s): about 2 runs/s here. */
const FINISH_MS = 60_000;

const FRESH_PROMPT = promptText(
  lua(
    "local r = tools.call('fix/echo', { value = args })\nstore.write('out.txt', r)\nreturn r",
  ).replace(/^/, "# Fresh\n\n## Main\n\n"),
);
const ASK_PROMPT = promptText(
  lua("return 'got ' .. tools.call('user-input/ask', {})").replace(/^/, "# Ask\n\n## Main\n\n"),
);

interface Outcome {
  readonly ms: number;
  readonly finished: number;
}

async function scenario(asks: number, parkAfterMs: number | "never"): Promise<Outcome> {
  const db = await freshDatabase();
  let worker: DurableWorker | undefined;
  try {
    worker = await launchDurableWorker({
      databaseUrl: db.url,
      executorId: `bench-parking-${process.pid}`,
      concurrency: 2,
      parkAfterMs,
      execute: async (execution) =>
        runOn(
          execution.wrap(new ScriptedPort({ store: new MemoryStore() })),
          execution.input.prompt.text,
          execution.input,
          execution.signal,
        ),
    });
    const client = worker.client;
    const asking = await Promise.all(
      Array.from({ length: asks }, () =>
        client.submit({ prompt: { path: "ask.md", text: ASK_PROMPT } }),
      ),
    );
    // Every ask taken and waiting (parked, or holding its slot when parking is off).
    const settle = Date.now() + 60_000;
    for (;;) {
      const states = await Promise.all(asking.map((id) => client.status(id)));
      const waiting = states.filter((s) => s?.state === "waiting").length;
      const running = states.filter((s) => s?.state === "running").length;
      if (parkAfterMs === "never" ? running >= Math.min(2, asks) : waiting === asks) break;
      if (Date.now() > settle) throw new Error("the asks did not settle");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const start = performance.now();
    const fresh = await Promise.all(
      Array.from({ length: FRESH }, (_, i) =>
        client.submit({ prompt: { path: "fresh.md", text: FRESH_PROMPT }, args: `f${i}` }),
      ),
    );
    let finished = 0;
    await Promise.all(
      fresh.map((id) =>
        client
          .result(id, { timeoutMs: parkAfterMs === "never" && asks > 0 ? STUCK_MS : FINISH_MS })
          .then(
            () => {
              finished += 1;
            },
            () => undefined,
          ),
      ),
    );
    return { ms: performance.now() - start, finished };
  } finally {
    await worker?.shutdown({ drain: false });
    await db.drop();
  }
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

if (skipReason === undefined) {
  const alone: Outcome[] = [];
  const parked: Outcome[] = [];
  const off: Outcome[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    alone.push(await scenario(0, 0));
    parked.push(await scenario(ASKS, 0));
  }
  off.push(await scenario(ASKS, "never"));
  const a = median(alone.map((o) => o.ms));
  const p = median(parked.map((o) => o.ms));
  console.log(
    [
      `${FRESH} fresh runs through one worker of concurrency 2, medians of ${ROUNDS} interleaved rounds:`,
      `  alone: ${a.toFixed(0)} ms (${((FRESH * 1000) / a).toFixed(1)} runs/s); finished ${alone.map((o) => o.finished).join("/")} of ${FRESH}`,
      `  beside ${ASKS} parked asks: ${p.toFixed(0)} ms, ${(p / a).toFixed(2)}x alone; finished ${parked.map((o) => o.finished).join("/")} of ${FRESH}`,
      `  parking off, beside ${ASKS} waiting asks: ${off[0]?.finished} of ${FRESH} finished within ${STUCK_MS} ms (both slots held by asks)`,
    ].join("\n"),
  );
}
afterAll(() => undefined);

describe("parking", () => {
  bench.skipIf(skipReason !== undefined)("printed above (one-shot scenarios)", () => undefined, {
    iterations: 1,
  });
});
