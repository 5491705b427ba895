import { MemoryStore, readAllFiles } from "@runvil/harness";
import { loadPg } from "@runvil/pg-kit";
import type { ToolCallRequest } from "@runvil/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DurableWorker, launchDurableWorker } from "./durable-worker";
import { ScriptedPort } from "./test-support/scripted-port";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import {
  type ExecutionLog,
  lua,
  promptText,
  runOn,
  testExecute,
} from "./test-support/test-execute";

/** Two asks with a store write and a model round between them. */
const ASKING = promptText(
  [
    "# Asking",
    "## Main",
    lua(
      [
        "local first = tools.call('user-input/ask', {})",
        "store.write('first.txt', first)",
        "models.use('writer')",
        "tools.offer('fix/echo')",
        "messages:user(first)",
        "local said = models.loop()",
        "local second = tools.call('user-input/ask', {})",
        "store.write('second.txt', second)",
        "return first .. '+' .. said .. '+' .. second .. '|' .. sys.id",
      ].join("\n"),
    ),
  ].join("\n\n"),
);

/** One ask, then a store write. */
const ONE_ASK = promptText(
  [
    "# One ask",
    "## Main",
    lua(
      [
        "local answer = tools.call('user-input/ask', {})",
        "store.write('answer.txt', answer)",
        "return 'got ' .. answer",
      ].join("\n"),
    ),
  ].join("\n\n"),
);

const SIMPLE = promptText(
  [
    "# Simple",
    "## Main",
    lua(
      [
        "local direct = tools.call('fix/echo', { value = 'x' })",
        "store.write('out.txt', direct)",
        "return direct",
      ].join("\n"),
    ),
  ].join("\n\n"),
);

const START = Date.UTC(2026, 11, 2, 9, 0, 0);
const PARKED_RUNS = 4;
const RACES = 10;

/** A ScriptedPort whose ask tool answers from `answers`, in order: an uninterrupted run. */
class AnsweringPort extends ScriptedPort {
  private readonly answers: string[];

  constructor(answers: readonly string[]) {
    super({ store: new MemoryStore() });
    this.answers = [...answers];
  }

  override toolCall(request: ToolCallRequest) {
    if (request.tool !== "user-input/ask") return super.toolCall(request);
    return Promise.resolve({ text: this.answers.shift() ?? "", trusted: true });
  }

  get store() {
    return (this as unknown as { options: { store: MemoryStore } }).options.store;
  }
}

describe.skipIf(skipReason !== undefined)(
  suiteName("runs parked on their asks by a worker of concurrency 2"),
  () => {
    let worker: DurableWorker;
    let drop: () => Promise<void>;
    let url: string;
    const log: ExecutionLog[] = [];
    const stores = new Map<string, MemoryStore>();
    const notes: string[] = [];

    beforeAll(async () => {
      const db = await freshDatabase();
      drop = db.drop;
      url = db.url;
      worker = await launchDurableWorker({
        databaseUrl: db.url,
        executorId: "parking-worker",
        concurrency: 2,
        parkAfterMs: 0,
        onNote: (note) => notes.push(note),
        execute: testExecute(log, {
          // One store per run, kept across its executions (as a run store in the database is).
          stores: (runId) => {
            const store = stores.get(runId) ?? new MemoryStore();
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

    /** DBOS's notifications of a run: how many, how many consumed. */
    const notifications = async (runId: string): Promise<{ sent: number; consumed: number }> => {
      const { Client } = loadPg();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        const rows = await client.query<{ sent: string; consumed: string }>(
          "SELECT count(*)::text AS sent, count(*) FILTER (WHERE consumed)::text AS consumed FROM dbos.notifications WHERE destination_uuid = $1",
          [runId],
        );
        return { sent: Number(rows.rows[0]?.sent), consumed: Number(rows.rows[0]?.consumed) };
      } finally {
        await client.end();
      }
    };

    it("parks runs waiting on asks, so fresh runs still complete; each answer re-queues its run, which ends as an uninterrupted run would", async () => {
      const asking = await Promise.all(
        Array.from({ length: PARKED_RUNS }, (_, i) =>
          worker.client.submit({
            prompt: { path: "asking.md", text: ASKING },
            seed: 40 + i,
            startedAt: START,
          }),
        ),
      );
      // Twice the worker's concurrency, all waiting on their first ask: every one was parked.
      for (const runId of asking) {
        const status = await eventually(async () => {
          const s = await worker.client.status(runId);
          return s?.state === "waiting" ? s : undefined;
        });
        expect(status.waitingOn).toBeDefined();
        expect(status.waitingOn).toEqual((await worker.client.waitingAsks(runId))[0]);
      }
      const listed = await worker.client.list({ state: "waiting" });
      expect(listed.map((s) => s.runId).sort()).toEqual([...asking].sort());
      expect(await worker.client.list({ state: "cancelled" })).toEqual([]);

      const fresh = await Promise.all(
        [1, 2, 3].map((seed) =>
          worker.client.submit({ prompt: { path: "simple.md", text: SIMPLE }, seed }),
        ),
      );
      for (const runId of fresh) {
        expect(await worker.client.result(runId, { timeoutMs: 60_000 })).toMatchObject({
          outcome: "succeeded",
          result: "echo(x)",
        });
      }

      // `result` waits through the parks; the first answer re-queues, the run parks on its second.
      const results = asking.map((runId) => worker.client.result(runId, { timeoutMs: 120_000 }));
      for (const runId of asking) {
        const first = await worker.client.answer(runId, `yes-${runId}`);
        expect(first.resumed).toBe(true);
        await eventually(async () => {
          const s = await worker.client.status(runId);
          return s?.state === "waiting" && s.waitingOn !== first.ask ? s : undefined;
        });
        expect(await worker.client.answer(runId, `no-${runId}`)).toMatchObject({ resumed: true });
      }
      for (const [i, runId] of asking.entries()) {
        const result = await results[i];
        const reference = new AnsweringPort([`yes-${runId}`, `no-${runId}`]);
        const plain = await runOn(reference, ASKING, {
          args: "",
          seed: 40 + i,
          startedAt: START,
        });
        expect(result).toEqual(plain);
        expect(await readAllFiles(stores.get(runId) ?? new MemoryStore())).toEqual(
          await readAllFiles(reference.store),
        );
        // Each ask answered once: two messages, both taken; three executions (two parks).
        expect(await notifications(runId)).toEqual({ sent: 2, consumed: 2 });
        const executions = log.filter((e) => e.runId === runId);
        expect(executions).toHaveLength(3);
        expect(executions.map((e) => e.execution.counts().asks)).toEqual([0, 1, 2]);
        // Every effect performed once, over the three executions, as in the uninterrupted run.
        expect(executions.flatMap((e) => e.port.performed).sort()).toEqual(
          [...reference.performed].sort(),
        );
        expect((await worker.client.status(runId))?.state).toBe("finished");
      }
      expect(notes.filter((n) => n.startsWith("parked run"))).toHaveLength(2 * PARKED_RUNS);
      expect(notes.filter((n) => !n.startsWith("parked run"))).toEqual([]);
    });

    it(`never loses an answer given at the instant its run parks (${RACES} races)`, async () => {
      const runs = await Promise.all(
        Array.from({ length: RACES }, (_, i) =>
          worker.client.submit({
            prompt: { path: "one-ask.md", text: ONE_ASK },
            seed: 100 + i,
            startedAt: START,
          }),
        ),
      );
      const answered = await Promise.all(
        runs.map(async (runId, i) => {
          // As soon as the ask is recorded (the park is being decided at once), a little later each time.
          await eventually(async () =>
            (await worker.client.waitingAsks(runId)).length === 1 ? true : undefined,
          );
          await new Promise((resolve) => setTimeout(resolve, i % 5));
          return worker.client.answer(runId, `answer-${i}`);
        }),
      );
      for (const [i, runId] of runs.entries()) {
        const result = await worker.client.result(runId, { timeoutMs: 120_000 });
        expect(result).toMatchObject({ outcome: "succeeded", result: `got answer-${i}` });
        expect(await readAllFiles(stores.get(runId) ?? new MemoryStore())).toEqual({
          "answer.txt": `answer-${i}`,
        });
        expect(await notifications(runId)).toEqual({ sent: 1, consumed: 1 });
      }
      // Some answers found their run parked, some still held: either way none was lost.
      expect(answered.map((a) => a.ask)).toHaveLength(RACES);
    });
  },
);

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
