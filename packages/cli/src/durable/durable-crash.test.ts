import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type DurableClient, type DurableExecution, openDurableClient } from "@runvil/durable";
import { readAllFiles } from "@runvil/harness";
import type { RunResult } from "@runvil/protocol";
import { openPgStoreDatabase, type PgStoreDatabase } from "@runvil/store-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliHostCache } from "../host/cli-host";
import { ScriptedOpenAiServer } from "../test-openai-server";
import { DrainGate } from "./drain-gate";
import { RUNVIL_SCHEMA } from "./durable-database";
import { durableExecute } from "./durable-execute";
import { CRASH_PROMPT, crashAnswers, crashFixture } from "./test-support/crash-fixture";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import { seededRandom, sleep, WorkerSlot } from "./test-support/worker-processes";

const RUNS = Number(process.env.RUNVIL_CRASH_RUNS ?? 50);
/** SIGKILLs in one test run (RUNVIL_CRASH_KILLS=0 runs the workers undisturbed, to compare). */
const MAX_KILLS = Number(process.env.RUNVIL_CRASH_KILLS ?? 10);
const START = Date.UTC(2026, 0, 2, 3, 4, 5);
const ARMS = ["x", "y", "z"];

/** One execution of `count/bump`: the process that ran it and the ids its ToolContext lent. */
interface Execution {
  readonly pid: number;
  readonly runId: string;
  readonly effectId: string;
}

/** Every tool execution the count file saw: key -> its executions, in order. */
function executions(file: string): Map<string, Execution[]> {
  const seen = new Map<string, Execution[]>();
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return seen;
  }
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [key, pid, runId, effectId] = line.split("\t") as [string, string, string, string];
    seen.set(key, [...(seen.get(key) ?? []), { pid: Number(pid), runId, effectId }]);
  }
  return seen;
}

/** The side effects `count/bump` applied, once per idempotency key: key -> the tool's key. */
function applied(dir: string): Map<string, string> {
  const done = new Map<string, string>();
  for (const name of readdirSync(join(dir, "applied"))) {
    done.set(decodeURIComponent(name), readFileSync(join(dir, "applied", name), "utf8"));
  }
  return done;
}

describe.skipIf(skipReason !== undefined)(
  suiteName("durable runs through three workers SIGKILLed at random instants"),
  () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let server: ScriptedOpenAiServer;
    let fixture: ReturnType<typeof crashFixture>;
    let client: DurableClient;
    let stores: PgStoreDatabase;
    let referenceStores: PgStoreDatabase;
    const slots: WorkerSlot[] = [];

    beforeAll(async () => {
      database = await freshDatabase();
      server = new ScriptedOpenAiServer(crashAnswers);
      fixture = crashFixture(await server.start());
      client = await openDurableClient(database.url);
      stores = await openPgStoreDatabase(database.url, { schema: RUNVIL_SCHEMA });
      referenceStores = await openPgStoreDatabase(database.url, { schema: "reference" });
    });

    afterAll(async () => {
      await Promise.all(slots.map((slot) => slot.kill()));
      await client?.close();
      await stores?.close();
      await referenceStores?.close();
      await server?.close();
      await database?.drop();
      if (fixture !== undefined) rmSync(fixture.dir, { recursive: true, force: true });
    });

    it("every run completes once with the result and store of an uninterrupted run; no completed tool step ran again", async () => {
      const countFile = join(fixture.dir, "counts.tsv");
      writeFileSync(countFile, "");
      const env = { ...process.env, RUNVIL_COUNT_FILE: countFile };
      const workerArgs = [
        "--database",
        database.url,
        "--concurrency",
        "4",
        "--dead-after",
        "3",
        "--heartbeat",
        "250",
      ];
      // The first worker prepares the database (DBOS's tables); the others start after it.
      for (const name of ["w1", "w2", "w3"]) {
        const slot = new WorkerSlot(name, workerArgs, env);
        slot.start();
        slots.push(slot);
        if (name === "w1") await slot.waitForLog("taking runs");
      }
      for (const slot of slots) await slot.waitForLog("taking runs");
      const ids: string[] = [];
      for (let i = 1; i <= RUNS; i++) {
        ids.push(
          await client.submit({
            runId: `crash-${String(i).padStart(2, "0")}`,
            prompt: { path: fixture.prompt, text: CRASH_PROMPT },
            args: `r${i}`,
            seed: 1000 + i,
            startedAt: START + i,
            options: { config: fixture.config },
          }),
        );
      }

      // Kill workers at seeded random instants while the runs go; some come back at once (they
      // recover their own runs at launch), some stay away past --dead-after (another worker
      // recovers their runs).
      const random = seededRandom(17);
      const finished = async (): Promise<number> =>
        (await client.list({ limit: RUNS * 2, state: "finished" })).length;
      const deadline = Date.now() + 300_000;
      let kills = 0;
      const began = Date.now();
      for (
        let done = await finished();
        done < RUNS && Date.now() < deadline;
        done = await finished()
      ) {
        if (process.env.RUNVIL_CRASH_PROGRESS === "1") {
          console.info(
            `${Math.round((Date.now() - began) / 1000)} s: ${done} finished, ${kills} kills`,
          );
        }
        // Short enough that a fast machine, which finishes the 50 runs in ~10 s, still sees the kills.
        await sleep(200 + random() * 600);
        if (kills >= MAX_KILLS || done === 0) continue;
        const slot = slots[Math.floor(random() * slots.length)] as WorkerSlot;
        if (!slot.alive) continue;
        await slot.kill();
        kills += 1;
        const away = random() < 0.3 ? 4000 : 200 + random() * 800;
        setTimeout(() => slot.start(), away);
      }
      const logs = slots.map((slot) => slot.log.join("")).join("\n");
      expect(await finished(), logs).toBe(RUNS);
      expect(kills).toBeGreaterThanOrEqual(Math.min(3, MAX_KILLS));

      const modelRequests = server.bodies.length;
      // The same runs, uninterrupted, in this process: no DBOS, a store of their own.
      mkdirSync(join(fixture.dir, "reference"));
      const referenceCounts = join(fixture.dir, "reference", "counts.tsv");
      writeFileSync(referenceCounts, "");
      process.env.RUNVIL_COUNT_FILE = referenceCounts;
      const hosts = new CliHostCache();
      const execute = durableExecute({
        stores: referenceStores,
        gate: new DrainGate(() => false),
        hosts,
      });
      const killed = new Set(slots.flatMap((slot) => slot.killedPids));
      try {
        const check = async (index: number): Promise<void> => {
          const runId = ids[index] as string;
          const i = index + 1;
          const status = await client.status(runId);
          expect(status?.state).toBe("finished");
          const execution: DurableExecution = {
            input: {
              runId,
              prompt: { path: fixture.prompt, text: CRASH_PROMPT },
              args: `r${i}`,
              seed: 1000 + i,
              startedAt: START + i,
              runvilVersion: "reference",
              options: { config: fixture.config },
            },
            wrap: (port) => port,
            signal: new AbortController().signal,
            counts: () => ({ recorded: 0, live: 0, asks: 0 }),
            recovered: false,
          };
          const reference: RunResult = await execute(execution);
          expect(reference.outcome).toBe("succeeded");
          expect(await client.result(runId)).toEqual(reference);
          expect(await readAllFiles(await stores.store(runId))).toEqual(
            await readAllFiles(await referenceStores.store(runId)),
          );
        };
        // Ten at a time: the reference runs are independent of each other.
        for (let first = 0; first < ids.length; first += 10) {
          await Promise.all(ids.slice(first, first + 10).map((_, offset) => check(first + offset)));
        }
      } finally {
        await hosts.close();
      }

      // Every tool step ran at least once; a step ran again only after the worker running it
      // was killed before its step was recorded: every execution but the last is a killed pid's.
      // Every execution of a step was lent the same run id and effect id, so the side effect
      // keyed by them was applied exactly once per step, however often the step ran.
      const seen = executions(countFile);
      const sideEffects = applied(fixture.dir);
      let repeated = 0;
      for (let i = 1; i <= RUNS; i++) {
        for (const key of [`r${i}/a`, `r${i}/b`, ...ARMS.map((arm) => `r${i}/arm/${arm}`)]) {
          const runs = seen.get(key) ?? [];
          expect(runs.length, key).toBeGreaterThanOrEqual(1);
          for (const { pid } of runs.slice(0, -1))
            expect(killed.has(pid), `${key} ran again after ${pid}`).toBe(true);
          const keys = [...new Set(runs.map((r) => `${r.runId}/${r.effectId}`))];
          expect(keys, key).toHaveLength(1);
          expect(runs[0]?.runId, key).toBe(ids[i - 1]);
          expect(sideEffects.get(keys[0] as string), key).toBe(key);
          repeated += runs.length - 1;
        }
      }
      expect(seen.size).toBe(RUNS * 5);
      expect(sideEffects.size).toBe(RUNS * 5);
      console.info(
        `durable crash test: ${RUNS} runs, ${kills} SIGKILLs, ${repeated} tool steps in flight at a kill ran again (their side effects applied once), ${modelRequests} model requests for ${RUNS * 5} rounds`,
      );
    }, 400_000);
  },
);
