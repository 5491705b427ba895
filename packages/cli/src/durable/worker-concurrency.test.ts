import { rmSync } from "node:fs";
import { type DurableClient, openDurableClient } from "@runvil/durable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedOpenAiServer } from "../test-openai-server";
import { crashAnswers, crashFixture } from "./test-support/crash-fixture";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import { sleep, WorkerSlot } from "./test-support/worker-processes";

/** A run of one model round: the test holds the rounds open, so each run stays running. */
const HELD_PROMPT = `---
name: held
description: One model round, held open by the test.
runvil: 0
models:
  writer:
    model: local:qwen3
    max_output_tokens: 16
---

# Held

\`\`\`lua
models.default('writer')
return args .. ': ' .. models.infer('say ' .. args)
\`\`\`
`;

/** More runs than the two workers take at once (1 + 3), so both stay full while rounds are held. */
const RUNS = 7;
/** How long both workers are watched full: several of DBOS's 1 s queue reconciles and polls. */
const WATCH_MS = 4000;

/**
 * Two `runvil worker` processes on one database, `--concurrency 1` and `--concurrency 3`: each
 * takes at most its own number of runs at once, whichever started last. (DBOS.registerQueue kept
 * one worker_concurrency in dbos.queues for every process: the last worker registered set it for
 * all, docs/design/durable.md "Per-worker concurrency".)
 */
describe.skipIf(skipReason !== undefined)(
  suiteName("each durable worker takes runs up to its own --concurrency"),
  () => {
    let server: ScriptedOpenAiServer;
    let fixture: ReturnType<typeof crashFixture>;
    const workers: WorkerSlot[] = [];
    const closers: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      server = new ScriptedOpenAiServer(crashAnswers);
      fixture = crashFixture(await server.start(), HELD_PROMPT);
    });

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.kill()));
      await Promise.all(closers.map((close) => close().catch(() => undefined)));
      await server?.close();
      if (fixture !== undefined) rmSync(fixture.dir, { recursive: true, force: true });
    });

    /** How many runs each executor runs now, from DBOS's record. */
    const runningByExecutor = async (client: DurableClient): Promise<Record<string, number>> => {
      const counts: Record<string, number> = {};
      for (const status of await client.list({ state: "running" })) {
        const id = status.executorId ?? "?";
        counts[id] = (counts[id] ?? 0) + 1;
      }
      return counts;
    };

    const concurrencyCase = async (order: readonly (readonly [string, number])[]) => {
      const database = await freshDatabase();
      closers.push(database.drop);
      const client = await openDurableClient(database.url);
      closers.push(() => client.close());
      const slots = order.map(([name, concurrency]) => {
        const slot = new WorkerSlot(
          name,
          ["--database", database.url, "--concurrency", String(concurrency)],
          process.env,
        );
        workers.push(slot);
        return { slot, concurrency };
      });
      const logs = (): string =>
        slots.map(({ slot }) => `--- ${slot.executorId}\n${slot.log.join("")}`).join("\n");
      // One after the other: the last to start is the one whose limit DBOS's queue row held.
      for (const { slot } of slots) {
        slot.start();
        await slot.waitForLog("taking runs");
      }

      const release = server.pause();
      const runIds: string[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        runIds.push(
          await client.submit({
            prompt: { path: fixture.prompt, text: HELD_PROMPT },
            args: `r${i}`,
            options: { config: fixture.config },
          }),
        );
      }
      // The most runs each executor ran at once, sampled until every run finished.
      const most: Record<string, number> = {};
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          for (const [id, n] of Object.entries(await runningByExecutor(client)))
            most[id] = Math.max(most[id] ?? 0, n);
          await sleep(100);
        }
      })();
      try {
        const full = slots.reduce((sum, { concurrency }) => sum + concurrency, 0);
        const deadline = Date.now() + 60_000;
        while (server.held < full) {
          if (Date.now() > deadline) {
            throw new Error(
              `the workers never held ${full} rounds at once (held ${server.held}; running ${JSON.stringify(await runningByExecutor(client))})\n${logs()}`,
            );
          }
          await sleep(100);
        }
        await sleep(WATCH_MS);
        const expected = Object.fromEntries(
          slots.map(({ slot, concurrency }) => [slot.executorId, concurrency]),
        );
        expect(await runningByExecutor(client), logs()).toEqual(expected);
        expect(server.held).toBe(full);
        release();
        for (const runId of runIds) {
          expect(await client.result(runId, { timeoutMs: 120_000 }), logs()).toMatchObject({
            outcome: "succeeded",
          });
        }
        sampling = false;
        await sampler;
        expect(most, logs()).toEqual(expected);
      } finally {
        sampling = false;
        release();
        await sampler.catch(() => undefined);
      }
      for (const { slot } of slots) expect(await slot.terminate(), logs()).toBe(0);
    };

    it("a --concurrency 1 worker started before a --concurrency 3 one runs at most 1 run at once, the other 3", async () => {
      await concurrencyCase([
        ["conc-one-first", 1],
        ["conc-three-last", 3],
      ]);
    }, 240_000);

    it("a --concurrency 3 worker started before a --concurrency 1 one runs 3 runs at once, the other at most 1", async () => {
      await concurrencyCase([
        ["conc-three-first", 3],
        ["conc-one-last", 1],
      ]);
    }, 240_000);
  },
);
