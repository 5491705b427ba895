import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DirectoryStore, MemoryStore, readAllFiles } from "@runvil/harness";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DurableClient, openDurableClient } from "./durable-client";
import { FANOUT_PROMPT } from "./test-support/fanout-prompt";
import { prng, ScriptedPort } from "./test-support/scripted-port";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import { lua, promptText, runOn } from "./test-support/test-execute";

/**
 * The randomized-completion test of docs/design/determinism.md run under DBOS with recovery in
 * the middle: runs of a program full of concurrent chains, effects completing after random
 * delays (seeded per process), worker processes killed with SIGKILL at random (seeded) points
 * and started again; every run must end with the result and store of an uninterrupted run, and
 * no effect whose step completed may run again.
 */
const RUNS = 6;
const KILLS = 4;
const KILL_SEED = 20261202;
const START = Date.UTC(2026, 11, 2, 4, 0, 0);
const here = fileURLToPath(new URL(".", import.meta.url));
const cache = join(here, "../node_modules/.cache/runvil-durable-test");

describe.skipIf(skipReason !== undefined)(
  suiteName("durable runs killed with SIGKILL and recovered"),
  () => {
    let folder: string;
    let child: string;
    let url: string;
    let drop: () => Promise<void>;
    let client: DurableClient;

    beforeAll(async () => {
      mkdirSync(cache, { recursive: true });
      folder = mkdtempSync(join(cache, "run-"));
      child = join(folder, "crash-child.mjs");
      await build({
        entryPoints: [join(here, "test-support/crash-child.ts")],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        packages: "external",
        outfile: child,
        logLevel: "error",
      });
      const db = await freshDatabase();
      url = db.url;
      drop = db.drop;
      // A client opened before any worker launched migrates DBOS's schema itself.
      client = await openDurableClient(url);
    });

    afterAll(async () => {
      await client?.close();
      await drop?.();
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    });

    it(`gives ${RUNS} runs the result and store of an uninterrupted run through ${KILLS} kills, no completed step run twice`, async () => {
      const reference = new MemoryStore();
      const plain = await runOn(
        new ScriptedPort({ store: reference, delaySeed: 1 }),
        FANOUT_PROMPT,
        {
          args: "",
          seed: 3,
          startedAt: START,
        },
      );
      expect(plain.outcome).toBe("succeeded");
      const referenceFiles = await readAllFiles(reference);

      const ids: string[] = [];
      for (let n = 0; n < RUNS; n += 1) {
        ids.push(
          await client.submit({
            runId: `crash-${n}`,
            prompt: { path: "fanout.md", text: FANOUT_PROMPT },
            seed: 3,
            startedAt: START,
          }),
        );
      }
      const log = join(folder, "effects.log");
      writeFileSync(log, "");
      const random = prng(KILL_SEED);
      const stores = join(folder, "stores");
      for (let kill = 0; kill < KILLS; kill += 1) {
        const before = lines(log).length;
        const worker = await startWorker(child, [url, "crash-worker", stores, log]);
        const after = before + 20 + Math.floor(random() * 120);
        await until(() => lines(log).length >= after || worker.exitCode !== null, 120_000);
        worker.kill("SIGKILL");
        await exited(worker);
      }
      const last = await startWorker(child, [url, "crash-worker", stores, log]);
      try {
        for (const id of ids) {
          const result = await client.result(id, { timeoutMs: 180_000 });
          expect(result).toEqual(plain);
          expect(await readAllFiles(new DirectoryStore(join(stores, id)))).toEqual(referenceFiles);
        }
      } finally {
        last.kill("SIGKILL");
        await exited(last);
      }

      // No effect ran again once its step had settled (its DBOS step was recorded).
      const settled = new Set<string>();
      const performed = new Map<string, number>();
      const rerunAfterSettled: string[] = [];
      for (const line of lines(log)) {
        const [, what, run, ...rest] = line.split(" ");
        const effect = rest[rest.length - 1];
        const key = `${run} ${effect}`;
        if (what === "settled") settled.add(key);
        else {
          if (settled.has(key)) rerunAfterSettled.push(key);
          performed.set(key, (performed.get(key) ?? 0) + 1);
        }
      }
      expect(rerunAfterSettled).toEqual([]);
      // Recovery happened in the middle of runs: some run was performed by several processes.
      const pids = new Map<string, Set<string>>();
      for (const line of lines(log)) {
        const [pid, what, run] = line.split(" ");
        if (what !== "perform" || pid === undefined || run === undefined) continue;
        const set = pids.get(run) ?? new Set<string>();
        set.add(pid);
        pids.set(run, set);
      }
      const resumed = [...pids.values()].filter((set) => set.size > 1).length;
      expect(resumed).toBeGreaterThan(0);
      const perRun = [...performed.keys()].filter((k) => k.startsWith("crash-0 ")).length;
      expect(perRun).toBeGreaterThan(40);
      const again = [...performed.values()].filter((count) => count > 1).length;
      // Only the steps in flight at a kill ran again: at most the effects in flight at once.
      expect(again).toBeLessThanOrEqual(KILLS * RUNS * 16);
    });

    it("recovers a run killed inside a tool step without performing its completed model rounds and tool calls again", async () => {
      const held = promptText(
        [
          "# Held",
          "## Main",
          lua(
            [
              "models.use('writer')",
              "tools.offer('fix/echo')",
              "messages:user('hello')",
              "local said = models.loop()",
              "store.write('said.txt', said)",
              "local held = tools.call('fix/echo', { value = 'hold' })",
              "store.write('held.txt', held)",
              "return said .. '|' .. held",
            ].join("\n"),
          ),
        ].join("\n\n"),
      );
      const runId = await client.submit({
        runId: "held",
        prompt: { path: "held.md", text: held },
        startedAt: START,
      });
      const log = join(folder, "held.log");
      writeFileSync(log, "");
      const stores = join(folder, "held-stores");
      const tools = () => lines(log).filter((l) => l.includes(" perform held tool "));
      const first = await startWorker(child, [url, "held-worker", stores, log], {
        RUNVIL_HOLD_VALUE: "hold",
      });
      await until(() => tools().length >= 2, 120_000);
      first.kill("SIGKILL");
      await exited(first);
      const second = await startWorker(child, [url, "held-worker", stores, log]);
      try {
        expect(await client.result(runId, { timeoutMs: 120_000 })).toMatchObject({
          outcome: "succeeded",
          result: "said echo(hello)|echo(hold)",
        });
      } finally {
        second.kill("SIGKILL");
        await exited(second);
      }
      const count = (kind: string) =>
        lines(log).filter((l) => l.includes(` perform held ${kind} `)).length;
      // Two model rounds and the model's tool call ran once; only the held call (in flight) ran twice.
      expect({ model: count("model"), tool: count("tool"), store: count("store") }).toEqual({
        model: 2,
        tool: 3,
        store: 2,
      });
      expect(await readAllFiles(new DirectoryStore(join(stores, runId)))).toEqual({
        "held.txt": "echo(hold)",
        "said.txt": "said echo(hello)",
      });
    });

    it("drains a worker stopped with SIGTERM: its steps in flight finish, its runs go to another worker, nothing runs twice", async () => {
      const runId = await client.submit({
        runId: "drained",
        prompt: { path: "fanout.md", text: FANOUT_PROMPT },
        seed: 3,
        startedAt: START,
      });
      const log = join(folder, "drain.log");
      writeFileSync(log, "");
      const stores = join(folder, "drain-stores");
      const first = await startWorker(child, [url, "drain-first", stores, log]);
      await until(() => lines(log).length >= 40, 120_000);
      first.kill("SIGTERM");
      await exited(first);
      expect(first.exitCode).toBe(0);
      const firstPid = String(first.pid);
      const byFirst = lines(log).filter((l) => l.startsWith(`${firstPid} `));
      const performedByFirst = byFirst
        .filter((l) => l.includes(" perform "))
        .map((l) => l.split(" ").pop());
      const settledByFirst = new Set(
        byFirst.filter((l) => l.includes(" settled ")).map((l) => l.split(" ").pop()),
      );
      expect(performedByFirst.filter((effect) => !settledByFirst.has(effect))).toEqual([]);
      expect((await client.status(runId))?.state).toBe("enqueued");
      const second = await startWorker(child, [url, "drain-second", stores, log]);
      try {
        const result = await client.result(runId, { timeoutMs: 180_000 });
        expect(result.outcome).toBe("succeeded");
        expect((await client.status(runId))?.executorId).toBe("drain-second");
      } finally {
        second.kill("SIGKILL");
        await exited(second);
      }
      const performed = lines(log)
        .filter((l) => l.includes(" perform "))
        .map((l) => l.split(" ").pop());
      expect(performed.length).toBe(new Set(performed).size);
      expect(performed.length).toBeGreaterThan(40);
    });

    it("puts the runs of a worker gone for good back on the queue for another, answers kept", async () => {
      const asking = promptText(
        [
          "# Ask",
          "## Main",
          lua(
            "store.write('before.txt', 'b')\nlocal a = tools.call('user-input/ask', {})\nstore.write('after.txt', a)\nreturn 'got ' .. a",
          ),
        ].join("\n\n"),
      );
      const fanout = await client.submit({
        runId: "gone-fanout",
        prompt: { path: "fanout.md", text: FANOUT_PROMPT },
        seed: 3,
        startedAt: START,
      });
      const ask = await client.submit({
        runId: "gone-ask",
        prompt: { path: "ask.md", text: asking },
        startedAt: START,
      });
      const log = join(folder, "gone.log");
      writeFileSync(log, "");
      const stores = join(folder, "gone-stores");
      const gone = await startWorker(child, [url, "gone-worker", stores, log]);
      await until(
        () => lines(log).filter((l) => l.includes(" perform gone-fanout ")).length >= 30,
        120_000,
      );
      const waiting = await eventually(async () => {
        const asks = await client.waitingAsks(ask);
        return asks.length === 1 ? asks : undefined;
      });
      gone.kill("SIGKILL");
      await exited(gone);
      // The answer arrives while no worker runs the run: it waits in the database.
      expect(await client.answer(ask, "yes")).toEqual({ ask: waiting[0], resumed: false });
      const other = await startWorker(child, [url, "other-worker", stores, log]);
      try {
        expect((await client.status(fanout))?.state).toBe("running");
        expect((await client.recover(["gone-worker"])).sort()).toEqual([fanout, ask].sort());
        expect(await client.result(ask, { timeoutMs: 120_000 })).toMatchObject({
          outcome: "succeeded",
          result: "got yes",
        });
        const result = await client.result(fanout, { timeoutMs: 180_000 });
        expect(result.outcome).toBe("succeeded");
        expect((await client.status(fanout))?.executorId).toBe("other-worker");
        expect(await readAllFiles(new DirectoryStore(join(stores, ask)))).toEqual({
          "after.txt": "yes",
          "before.txt": "b",
        });
      } finally {
        other.kill("SIGKILL");
        await exited(other);
      }
      expect(await client.recover(["gone-worker"])).toEqual([]);
    });
    it("answers a run parked by a worker killed since: no executor holds it, another worker finishes it", async () => {
      const asking = promptText(
        [
          "# Ask",
          "## Main",
          lua(
            "store.write('before.txt', 'b')\nlocal a = tools.call('user-input/ask', {})\nstore.write('after.txt', a)\nreturn 'got ' .. a",
          ),
        ].join("\n\n"),
      );
      const runId = await client.submit({
        runId: "parked-ask",
        prompt: { path: "ask.md", text: asking },
        startedAt: START,
      });
      const log = join(folder, "parked.log");
      writeFileSync(log, "");
      const stores = join(folder, "parked-stores");
      const parker = await startWorker(child, [url, "parking-worker", stores, log], {
        RUNVIL_PARK_AFTER: "0",
      });
      await eventually(async () =>
        (await client.status(runId))?.state === "waiting" ? true : undefined,
      );
      parker.kill("SIGKILL");
      await exited(parker);
      // Parked: the dead worker's recovery does not take it; the answer puts it on the queue.
      expect(await client.recover(["parking-worker"])).toEqual([]);
      expect((await client.status(runId))?.state).toBe("waiting");
      expect(await client.answer(runId, "yes")).toMatchObject({ resumed: true });
      const other = await startWorker(child, [url, "after-park-worker", stores, log]);
      try {
        expect(await client.result(runId, { timeoutMs: 120_000 })).toMatchObject({
          outcome: "succeeded",
          result: "got yes",
        });
        expect((await client.status(runId))?.executorId).toBe("after-park-worker");
        expect(await readAllFiles(new DirectoryStore(join(stores, runId)))).toEqual({
          "after.txt": "yes",
          "before.txt": "b",
        });
        // The store write before the ask was performed once, by the worker that parked it.
        expect(lines(log).filter((l) => l.includes(` perform ${runId} store `))).toHaveLength(2);
      } finally {
        other.kill("SIGKILL");
        await exited(other);
      }
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

function lines(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "");
  } catch {
    return [];
  }
}

function startWorker(
  script: string,
  args: string[],
  env: Readonly<Record<string, string>> = {},
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, [script, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let err = "";
    worker.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    worker.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve(worker);
    });
    worker.on("exit", (code, signal) => {
      if (signal === null && code !== 0) reject(new Error(`the worker exited ${code}: ${err}`));
    });
  });
}

function exited(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => worker.once("exit", () => resolve()));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
