import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type DurableExecution, openDurableClient } from "@runvil/durable";
import { readAllFiles } from "@runvil/harness";
import { CuttableProxy } from "@runvil/pg-kit/testing";
import type { EffectPort, RunResult } from "@runvil/protocol";
import { openPgStoreDatabase } from "@runvil/store-postgres";
import type * as Pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliHostCache } from "../host/cli-host";
import { ScriptedOpenAiServer } from "../test-openai-server";
import { DrainGate } from "./drain-gate";
import { RUNVIL_SCHEMA } from "./durable-database";
import { durableExecute } from "./durable-execute";
import { ASKING_CRASH_PROMPT, crashAnswers, crashFixture } from "./test-support/crash-fixture";
import {
  freePort,
  PRIVATE_PASSWORD,
  PrivateCluster,
  privateClusterSkipReason,
} from "./test-support/private-cluster";
import { runCliProcess, sleep, WorkerSlot } from "./test-support/worker-processes";

const ARMS = ["x", "y", "z"];
/** Runs submitted before the outage: `r1`…`r6` and one that asks the operator first. */
const PLAIN_RUNS = 6;
const ASK_ARGS = "ask1";
const ANSWER = "approved";
/** How long the database stays down: past --dead-after, so stale heartbeats are seen after it. */
const OUTAGE_MS = 6000;

function suiteName(name: string): string {
  return privateClusterSkipReason === undefined
    ? name
    : `${name} (skipped: ${privateClusterSkipReason})`;
}

/** Every tool execution the count file saw: key -> how many times. */
function executions(file: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    const key = line.split("\t")[0] as string;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return seen;
}

/** Polls `check` every 200 ms until it holds; fails with `what` (and `log()`) after `ms`. */
async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  log: () => string,
  ms = 120_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}\n${log()}`);
    await sleep(200);
  }
}

/** The start instant a run was submitted with, from DBOS's record of its input. */
async function startedAtOf(url: string, runId: string): Promise<number> {
  const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ inputs: string }>(
      "SELECT COALESCE(i.inputs, s.inputs) AS inputs FROM dbos.workflow_status s LEFT JOIN dbos.workflow_input i USING (workflow_uuid) WHERE s.workflow_uuid = $1",
      [runId],
    );
    // Wherever DBOS's serialization puts the input object, its startedAt is the one number of that name.
    const found = /"startedAt":([0-9]+)/.exec(rows[0]?.inputs ?? "");
    if (found === null)
      throw new Error(`no startedAt in the input of ${runId}: ${rows[0]?.inputs}`);
    const startedAt = Number(found[1]);
    return startedAt;
  } finally {
    await client.end();
  }
}

describe.skipIf(privateClusterSkipReason !== undefined)(
  suiteName("durable runs while their database goes away and comes back (a private cluster)"),
  () => {
    let cluster: PrivateCluster;
    let server: ScriptedOpenAiServer;
    let fixture: ReturnType<typeof crashFixture>;
    let proxy: CuttableProxy | undefined;
    const allWorkers: WorkerSlot[] = [];
    const closers: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      cluster = await PrivateCluster.create();
      server = new ScriptedOpenAiServer(crashAnswers);
      fixture = crashFixture(await server.start(), ASKING_CRASH_PROMPT);
    }, 180_000);

    afterAll(async () => {
      await Promise.all(allWorkers.map((worker) => worker.kill()));
      await Promise.all(closers.map((close) => close().catch(() => undefined)));
      await proxy?.cut();
      await server?.close();
      await cluster?.destroy();
      if (fixture !== undefined) rmSync(fixture.dir, { recursive: true, force: true });
    });

    it("each durable command refuses a server down, a refused login or no such database at start: one line naming the URL without its password, exit 1", async () => {
      const closed = await freePort();
      const port = String(cluster.port);
      const failures: [string, string, RegExp][] = [
        [
          `postgres://runvil:${PRIVATE_PASSWORD}@127.0.0.1:${closed}/runvil_outage`,
          PRIVATE_PASSWORD,
          new RegExp(
            `cannot reach the PostgreSQL server at postgres://runvil:\\*\\*\\*@127\\.0\\.0\\.1:${closed}/runvil_outage: connect ECONNREFUSED 127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\); start it or check the host and port$`,
          ),
        ],
        [
          cluster.url("runvil_outage", "not-the-password"),
          "not-the-password",
          new RegExp(
            `the PostgreSQL server at postgres://runvil:\\*\\*\\*@127\\.0\\.0\\.1:${port}/runvil_outage refused the login: password authentication failed for user "runvil" \\(28P01\\); check the user and password of the URL$`,
          ),
        ],
        [
          cluster.url("no_such_db"),
          PRIVATE_PASSWORD,
          new RegExp(
            `the PostgreSQL server at postgres://runvil:\\*\\*\\*@127\\.0\\.0\\.1:${port}/no_such_db has no such database: database "no_such_db" does not exist \\(3D000\\); create it \\(createdb\\) or check the URL$`,
          ),
        ],
      ];
      const commands: [string[], string][] = [
        [["worker", "--executor-id", "bad-start"], "worker bad-start: cannot start: "],
        [["submit", fixture.prompt], "runvil submit: cannot open the durable runs database: "],
        [["answer", "run-1", "yes"], "runvil answer: cannot open the durable runs database: "],
        [["runs", "list"], "runvil runs: cannot open the durable runs database: "],
      ];
      const outcomes = [];
      // Four processes at a time: the machine is small.
      for (const [url, password, why] of failures) {
        outcomes.push(
          ...(await Promise.all(
            commands.map(async ([argv, prefix]) => {
              const done = await runCliProcess([...argv, "--database", url]);
              return { argv, done, prefix, why, password };
            }),
          )),
        );
      }
      for (const { argv, done, prefix, why, password } of outcomes) {
        const what = `${argv.join(" ")}: ${done.stderr}`;
        expect(done.code, what).toBe(1);
        expect(done.stdout, what).toBe("");
        expect(done.stderr.endsWith("\n"), what).toBe(true);
        const lines = done.stderr.slice(0, -1).split("\n");
        expect(lines, what).toHaveLength(1);
        expect(lines[0]?.startsWith(prefix), what).toBe(true);
        expect(lines[0]?.slice(prefix.length), what).toMatch(why);
        expect(done.stderr, what).not.toContain(password);
      }
    }, 120_000);

    /**
     * Two workers and seven runs (one asks the operator) on a database of the private cluster;
     * `outage.take` takes the database away while every slot holds a model round or the ask, and
     * `outage.restore` brings it back after OUTAGE_MS.
     */
    const outageCase = async (
      database: string,
      outage: (url: string) => Promise<{
        readonly url: string;
        readonly take: () => Promise<void>;
        readonly restore: () => Promise<void>;
      }>,
    ): Promise<void> => {
      const { url, take, restore } = await outage(await cluster.createDatabase(database));
      const port = new URL(url).port;
      const countFile = join(fixture.dir, `counts-${database}.tsv`);
      const workers: WorkerSlot[] = [];
      writeFileSync(countFile, "");
      const env = { ...process.env, RUNVIL_COUNT_FILE: countFile };
      const logs = (): string =>
        workers.map((w) => `--- ${w.executorId}\n${w.log.join("")}`).join("\n");
      for (const name of [`${database}-w1`, `${database}-w2`]) {
        const worker = new WorkerSlot(
          name,
          ["--database", url, "--concurrency", "3", "--dead-after", "3", "--heartbeat", "250"],
          env,
        );
        worker.start();
        workers.push(worker);
        allWorkers.push(worker);
        // The first prepares the database alone.
        await worker.waitForLog("taking runs");
      }

      // Model rounds are held: the runs are in flight, each inside a model round, when the server goes.
      const release = server.pause();
      const submit = async (args: string, seed: number): Promise<string> => {
        const submitted = await runCliProcess(
          [
            "submit",
            fixture.prompt,
            "--database",
            url,
            "--config",
            fixture.config,
            "--args",
            args,
            "--seed",
            String(seed),
          ],
          env,
        );
        expect(submitted.stderr).toBe("");
        expect(submitted.code).toBe(0);
        return submitted.stdout.trim();
      };
      const plainArgs = Array.from({ length: PLAIN_RUNS }, (_, i) => `r${i + 1}`);
      const runs = await Promise.all(
        [...plainArgs, ASK_ARGS].map(async (args, i) => {
          const runId = await submit(args, 500 + i);
          return { args, seed: 500 + i, runId, startedAt: await startedAtOf(url, runId) };
        }),
      );
      const askRun = runs.find((run) => run.args === ASK_ARGS)?.runId as string;
      const openClient = await openDurableClient(url);
      closers.push(() => openClient.close());
      // Six slots, all taken: runs inside a model round and the asking run on its ask; one queued.
      await until(
        "every slot holds a model round or the ask",
        async () => server.held + (await openClient.waitingAsks(askRun)).length >= 6,
        logs,
      );

      await take();
      // The held rounds answer while the server is down: their steps, the tool calls and store
      // writes after them, and the queued run wait for it.
      release();
      const down = await runCliProcess(["runs", "list", "--database", url], env);
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(
        new RegExp(
          `^runvil runs: cannot open the durable runs database: cannot reach the PostgreSQL server at postgres://runvil:\\*\\*\\*@127\\.0\\.0\\.1:${port}/${database}: .*ECONNREFUSED.*; start it or check the host and port\\n$`,
        ),
      );
      await sleep(OUTAGE_MS);
      for (const worker of workers) expect(worker.exitedBy, logs()).toBeUndefined();
      await restore();
      const restored = Date.now();

      // The ask still waits after the outage (held by its worker, or parked past --park-after:
      // never parked on a read the outage failed); the answer goes through the CLI.
      await until(
        "the ask waits again",
        async () =>
          ["running", "waiting"].includes((await openClient.status(askRun))?.state ?? "") &&
          (await openClient.waitingAsks(askRun)).length === 1,
        logs,
      );
      const answered = await runCliProcess(["answer", askRun, ANSWER, "--database", url], env);
      expect(answered.stderr, logs()).toBe("");
      expect(answered.code).toBe(0);

      await until(
        "every run finished",
        async () => (await openClient.list({ state: "finished" })).length === runs.length,
        logs,
        180_000,
      );
      const finishedAfter = Date.now() - restored;
      for (const worker of workers) expect(worker.exitedBy, logs()).toBeUndefined();
      const log = logs();
      // No live worker was taken for dead because its heartbeat stopped with the server.
      expect(log).not.toMatch(/recovered \d+ runs? of/);
      expect(log).not.toMatch(/unhandled|uncaught|DeprecationWarning/i);
      for (const worker of workers) {
        const said = worker.log.join("");
        expect(said).toMatch(/heartbeat failed \(.*\); runs wait for the database/);
        expect(said).toMatch(/the database answers again after [0-9.]+ s; runs go on/);
      }

      // The same runs, uninterrupted, in this process: no DBOS, a store of their own.
      const stores = await openPgStoreDatabase(url, { schema: RUNVIL_SCHEMA });
      const referenceStores = await openPgStoreDatabase(url, { schema: "reference" });
      closers.push(
        () => stores.close(),
        () => referenceStores.close(),
      );
      const referenceCounts = join(fixture.dir, `reference-counts-${database}.tsv`);
      writeFileSync(referenceCounts, "");
      process.env.RUNVIL_COUNT_FILE = referenceCounts;
      const hosts = new CliHostCache();
      const execute = durableExecute({
        stores: referenceStores,
        gate: new DrainGate(() => false),
        hosts,
      });
      // The operator answers the reference run's ask as they answered the durable one.
      const answering = (port: EffectPort): EffectPort => ({
        ...port,
        toolCall: async (request) => {
          if (request.tool === "user-input/ask") return { text: ANSWER, trusted: true };
          if (port.toolCall === undefined) throw new Error("no tool port");
          return port.toolCall(request);
        },
      });
      try {
        for (const run of runs) {
          const execution: DurableExecution = {
            input: {
              runId: run.runId,
              prompt: { path: fixture.prompt, text: ASKING_CRASH_PROMPT },
              args: run.args,
              seed: run.seed,
              startedAt: run.startedAt,
              runvilVersion: "reference",
              options: { config: fixture.config },
            },
            wrap: answering,
            signal: new AbortController().signal,
            counts: () => ({ recorded: 0, live: 0, asks: 0 }),
            recovered: false,
          };
          const reference: RunResult = await execute(execution);
          expect(reference.outcome).toBe("succeeded");
          expect(await openClient.result(run.runId)).toEqual(reference);
          expect(await readAllFiles(await stores.store(run.runId))).toEqual(
            await readAllFiles(await referenceStores.store(run.runId)),
          );
        }
      } finally {
        await hosts.close();
      }
      const asked = await openClient.result(askRun);
      expect(asked.outcome === "succeeded" ? asked.result : asked).toContain(
        `${ASK_ARGS}=${ANSWER}`,
      );

      // Nobody was killed: every tool call ran exactly once, outage or not.
      const seen = executions(countFile);
      const expected = runs.flatMap((run) => {
        const n = run.args === ASK_ARGS ? `${ASK_ARGS}=${ANSWER}` : run.args;
        return [`${n}/a`, `${n}/b`, ...ARMS.map((arm) => `${n}/arm/${arm}`)];
      });
      expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(expected.map((k) => [k, 1])));

      console.info(
        `durable outage (${database}): ${runs.length} runs finished ${(finishedAfter / 1000).toFixed(1)} s after the database came back (the answer delivered in between)`,
      );

      // The workers drain and stop as usual.
      for (const worker of workers) expect(await worker.terminate(), logs()).toBe(0);
    };

    it("runs pause while the server is down (pg_ctl stop -m immediate) and finish when it is back: same results and stores, no effect performed twice, the workers stay up", async () => {
      await outageCase("runvil_outage_crash", async (url) => ({
        url,
        take: () => cluster.crash(),
        restore: () => cluster.start(),
      }));
    }, 420_000);

    it("runs pause while the network to the server is cut (every connection dropped, new ones refused) and finish when it is back: the same, and no worker is taken for dead", async () => {
      await outageCase("runvil_outage_cut", async (url) => {
        const cut = new CuttableProxy(url);
        proxy = cut;
        await cut.start();
        return { url: cut.urlFor(url), take: () => cut.cut(), restore: () => cut.start() };
      });
    }, 420_000);
  },
);
