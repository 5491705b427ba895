import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { MemoryStore, readAllFiles } from "@runvil/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDurableClient } from "./durable-client";
import { DurableError } from "./durable-error";
import { type DurableWorker, launchDurableWorker } from "./durable-worker";
import { DURABLE_QUEUE, DURABLE_WORKFLOW, RUNVIL_VERSION } from "./names";
import { ScriptedPort } from "./test-support/scripted-port";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import {
  type ExecutionLog,
  lua,
  promptText,
  runOn,
  testExecute,
} from "./test-support/test-execute";

const SIMPLE = promptText(
  [
    "# Simple",
    "## Main",
    lua(
      [
        "models.use('writer')",
        "tools.offer('fix/echo')",
        "messages:user('hello')",
        "local said = models.loop()",
        "local direct = tools.call('fix/echo', { value = 'x' })",
        "store.write('out.txt', said .. '|' .. direct)",
        "return store.read('out.txt') .. '|' .. sys.when",
      ].join("\n"),
    ),
  ].join("\n\n"),
);

const ASKING = promptText(
  [
    "# Asking",
    "## Main",
    lua(
      [
        "local first = tools.call('user-input/ask', {})",
        "store.write('first.txt', first)",
        "local second = tools.call('user-input/ask', {})",
        "return first .. '+' .. second",
      ].join("\n"),
    ),
  ].join("\n\n"),
);

const START = Date.UTC(2026, 11, 2, 4, 0, 0);

describe.skipIf(skipReason !== undefined)(suiteName("a durable worker on PostgreSQL"), () => {
  let worker: DurableWorker;
  let drop: () => Promise<void>;
  let url: string;
  const log: ExecutionLog[] = [];
  const stores = new Map<string, MemoryStore>();

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    url = db.url;
    // The queue row an older Runvil left (it registered runvil-runs in dbos.queues), with a
    // worker concurrency of 1: this worker's own limit (4) wins.
    await (await openDurableClient(url)).close();
    const older = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: "runvil" });
    try {
      await older.registerQueue(DURABLE_QUEUE, { workerConcurrency: 1 });
    } finally {
      await older.destroy();
    }
    worker = await launchDurableWorker({
      databaseUrl: db.url,
      executorId: "test-worker",
      execute: testExecute(log, {
        stores: (runId) => {
          const store = new MemoryStore();
          stores.set(runId, store);
          return store;
        },
      }),
    });
  });

  afterAll(async () => {
    await worker?.shutdown();
    await drop?.();
  });

  it("runs a submitted run through the queue, every effect a step, with the result of a plain run", async () => {
    const runId = await worker.client.submit({
      prompt: { path: "simple.md", text: SIMPLE },
      seed: 7,
      startedAt: START,
    });
    const result = await worker.client.result(runId, { timeoutMs: 60_000 });
    const plain = await runOn(new ScriptedPort({ store: new MemoryStore() }), SIMPLE, {
      args: "",
      seed: 7,
      startedAt: START,
    });
    expect(result).toEqual(plain);
    expect(result.outcome).toBe("succeeded");
    const execution = log.find((e) => e.runId === runId);
    expect(execution?.execution.counts()).toEqual({ recorded: 0, live: 6, asks: 0 });
    expect(await readAllFiles(stores.get(runId) ?? new MemoryStore())).toEqual({
      "out.txt": "said echo(hello)|echo(x)",
    });
    const status = await worker.client.status(runId);
    expect(status).toMatchObject({
      runId,
      state: "finished",
      executorId: "test-worker",
      runvilVersion: RUNVIL_VERSION,
    });
    const listed = await worker.client.list({ state: "finished" });
    expect(listed.map((s) => s.runId)).toContain(runId);
  });

  it("waits on a durable notification for each ask and resumes with the answers", async () => {
    const runId = await worker.client.submit({
      prompt: { path: "asking.md", text: ASKING },
      startedAt: START,
    });
    const firstAsk = await eventually(async () => {
      const asks = await worker.client.waitingAsks(runId);
      return asks.length === 1 ? asks[0] : undefined;
    });
    // Answered within the 30 s before a park: the run was not parked.
    expect(await worker.client.answer(runId, "yes")).toEqual({ ask: firstAsk, resumed: false });
    const secondAsk = await eventually(async () => {
      const asks = await worker.client.waitingAsks(runId);
      return asks.length === 1 && asks[0] !== firstAsk ? asks[0] : undefined;
    });
    await worker.client.answer(runId, "no");
    const result = await worker.client.result(runId, { timeoutMs: 60_000 });
    expect(result).toMatchObject({ outcome: "succeeded", result: "yes+no" });
    expect(secondAsk).not.toBe(firstAsk);
    await expect(worker.client.answer(runId, "late")).rejects.toThrow(
      new DurableError("not_waiting", `run ${runId} is finished: there is no question to answer`),
    );
  });

  it("takes runs up to its own concurrency, not the worker concurrency of a dbos.queues row an older Runvil left", async () => {
    const runIds = await Promise.all(
      [1, 2, 3].map(() =>
        worker.client.submit({ prompt: { path: "asking.md", text: ASKING }, startedAt: START }),
      ),
    );
    // Three runs wait on their first ask at once: the row's limit of 1 would hold two back.
    await eventually(async () => {
      const waiting = await Promise.all(runIds.map((id) => worker.client.waitingAsks(id)));
      return waiting.every((asks) => asks.length === 1) ? true : undefined;
    });
    for (const runId of runIds) {
      const { ask: first } = await worker.client.answer(runId, "a");
      await eventually(async () => {
        const asks = await worker.client.waitingAsks(runId);
        return asks.length === 1 && asks[0] !== first ? asks : undefined;
      });
    }
    await Promise.all(runIds.map((runId) => worker.client.answer(runId, "b")));
    for (const runId of runIds) {
      expect(await worker.client.result(runId, { timeoutMs: 60_000 })).toMatchObject({
        outcome: "succeeded",
        result: "a+b",
      });
    }
  });

  it("fails a run whose input names another Runvil version than its queue entry, naming both", async () => {
    const raw = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: "runvil" });
    try {
      await raw.enqueue(
        {
          workflowName: DURABLE_WORKFLOW,
          queueName: DURABLE_QUEUE,
          workflowID: "mixed-version",
          appVersion: `runvil-${RUNVIL_VERSION}`,
        },
        {
          runId: "mixed-version",
          prompt: { path: "simple.md", text: SIMPLE },
          args: "",
          seed: 0,
          startedAt: START,
          runvilVersion: "9.9.8",
        },
      );
    } finally {
      await raw.destroy();
    }
    await expect(
      worker.client.result("mixed-version", { timeoutMs: 60_000 }),
    ).rejects.toMatchObject({
      reason: "failed",
      message: `run mixed-version failed: run mixed-version was journaled by Runvil 9.9.8; this worker runs Runvil ${RUNVIL_VERSION}: start a worker of Runvil 9.9.8 to finish it`,
    });
    expect((await worker.client.status("mixed-version"))?.state).toBe("failed");
  });

  it("refuses an answer for a run that does not exist", async () => {
    await expect(worker.client.answer("no-such-run", "x")).rejects.toMatchObject({
      reason: "no_such_run",
      message: "no durable run no-such-run (list them with runvil runs)",
    });
  });

  it("leaves a run of another Runvil version on the queue and names both versions", async () => {
    const runId = await worker.client.submit({
      prompt: { path: "simple.md", text: SIMPLE },
      runvilVersion: "9.9.9",
    });
    const refused = await worker.refusedRuns();
    expect(refused).toContainEqual({
      runId,
      runVersion: "9.9.9",
      workerVersion: RUNVIL_VERSION,
      message: `run ${runId} was journaled by Runvil 9.9.9; this worker runs Runvil ${RUNVIL_VERSION}: start a worker of Runvil 9.9.9 to finish it`,
    });
    expect((await worker.client.status(runId))?.state).toBe("enqueued");
  });
});

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
