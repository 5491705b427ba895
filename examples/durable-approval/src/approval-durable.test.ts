import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openDurableClient } from "@runvil/durable";
import { openPgStoreDatabase } from "@runvil/store-postgres";
import type * as Pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const example = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const cliBin = join(dirname(require.resolve("@runvil/cli/package.json")), "dist", "bin.js");

/** RUNVIL_TEST_PG_URL (`bash scripts/test-postgres.sh`); with CI=true the test never skips. */
const serverUrl = process.env.RUNVIL_TEST_PG_URL;
const skip =
  serverUrl === undefined && process.env.CI !== "true"
    ? "no PostgreSQL server: set RUNVIL_TEST_PG_URL=postgres://user@127.0.0.1:port/db"
    : undefined;

async function admin(text: string): Promise<void> {
  if (serverUrl === undefined) {
    throw new Error("CI=true but RUNVIL_TEST_PG_URL is not set: .ci/run must start PostgreSQL");
  }
  const { Client } = require("pg") as typeof Pg;
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function runvil(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return exec(process.execPath, [cliBin, ...args], { cwd: example }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );
}

/** A `runvil worker` process and everything it wrote on stderr. */
const workerLogs: string[] = [];

function startWorker(database: string, id: string): { child: ChildProcess; log: string[] } {
  const log: string[] = [];
  const child = spawn(
    process.execPath,
    [
      cliBin,
      "worker",
      "--database",
      database,
      "--executor-id",
      id,
      "--heartbeat",
      "200",
      "--dead-after",
      "30",
    ],
    { cwd: example, stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (data) => {
    log.push(String(data));
    workerLogs.push(`[${id}] ${String(data)}`);
  });
  return { child, log };
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.on("exit", r));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe.skipIf(skip !== undefined)(
  `the approval through runvil submit, worker and answer${skip === undefined ? "" : ` (skipped: ${skip})`}`,
  () => {
    const name = `runvil_approval_${randomBytes(5).toString("hex")}`;
    let database: string;
    const workers: ChildProcess[] = [];

    beforeAll(async () => {
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(serverUrl as string);
      url.pathname = `/${name}`;
      database = url.toString();
    });

    afterAll(async () => {
      for (const child of workers) child.kill("SIGKILL");
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it("waits for the answer across a worker's drain and completes on another worker", async () => {
      // A first worker prepares the database (DBOS's tables) and stops: no worker runs now.
      const preparing = startWorker(database, "approval-a");
      workers.push(preparing.child);
      await until("the first worker to start", async () =>
        preparing.log.join("").includes("taking runs") ? true : undefined,
      );
      preparing.child.kill("SIGTERM");
      expect(await exited(preparing.child)).toBe(0);

      // Submitted while no worker runs: the run is queued, not waiting, so an answer is refused.
      const submitted = await runvil("submit", "approval.md", "--database", database);
      expect(submitted.stderr).toBe("");
      expect(submitted.code).toBe(0);
      const runId = submitted.stdout.trim();
      const early = await runvil("answer", runId, "yes", "--database", database);
      expect(early.code).toBe(1);
      expect(early.stderr).toMatch(
        new RegExp(`^runvil answer: .*${runId}.* \\(not_waiting\\)\\n$`),
      );

      const client = await openDurableClient(database);
      try {
        const first = startWorker(database, "approval-a");
        workers.push(first.child);
        await until("the run to wait on its ask", async () =>
          (await client.waitingAsks(runId)).length > 0 ? true : undefined,
        );
        // The waiting run holds nothing: the worker drains at once and its run goes on elsewhere.
        first.child.kill("SIGTERM");
        expect(await exited(first.child)).toBe(0);
        expect(first.log.join("")).toContain(
          "worker approval-a: stopped; its runs go on elsewhere",
        );

        const second = startWorker(database, "approval-b");
        workers.push(second.child);
        // The drained worker handed its run back to the queue; the second worker takes it and waits.
        await until("the second worker to take the run", async () => {
          const taken = await client.status(runId);
          return taken?.state === "running" && taken.executorId === "approval-b" ? true : undefined;
        });
        await until("the run to wait on its ask again", async () =>
          (await client.waitingAsks(runId)).length > 0 ? true : undefined,
        );
        const unclear = await runvil("answer", runId, "maybe later", "--database", database);
        // Parked or not (past the worker's --park-after, 30 s), the answer reaches it.
        expect(unclear.stdout).toMatch(
          new RegExp(`^answered .+ of run ${runId}( \\(it was parked: back on the queue\\))?\\n$`),
        );
        // The run took the unclear answer, noted it, and asks again.
        const stores = await openPgStoreDatabase(database, { schema: "runvil" });
        const store = await stores.store(runId);
        await until("the unclear answer to be noted", async () =>
          (await store.read("approval/audit.log")).includes("unclear: maybe later")
            ? true
            : undefined,
        );
        await until("the run to ask again", async () =>
          (await client.waitingAsks(runId)).length > 0 ? true : undefined,
        );
        const approved = await runvil("answer", runId, "yes", "--database", database);
        expect(approved.stderr).toBe("");
        expect(approved.code).toBe(0);
        const result = await client.result(runId, { timeoutMs: 60_000 });
        expect(result).toMatchObject({
          outcome: "succeeded",
          result: "approved: refund EUR 35 for order 1042: the parcel arrived damaged (EUR 35)",
        });
        const status = await client.status(runId);
        expect(status).toMatchObject({ state: "finished", executorId: "approval-b" });

        // The run's store lives in the database: the second worker saw what the first wrote.
        expect(await store.read("approval/audit.log")).toBe(
          "proposed: refund EUR 35\nunclear: maybe later\nanswered: yes\n",
        );
        expect(await store.exists("approval/question.md")).toBe(false);
        await stores.close();

        const late = await runvil("answer", runId, "yes", "--database", database);
        expect(late.code).toBe(1);
        expect(late.stderr).toContain("(not_waiting)");
        const listed = await runvil("runs", "list", "--database", database);
        expect(listed.stdout).toMatch(
          new RegExp(
            `^ID +STATE +WORKER +PROMPT +CREATED +ATTEMPTS\\n${runId} +finished +approval-b +\\S*approval\\.md`,
          ),
        );

        second.child.kill("SIGTERM");
        expect(await exited(second.child)).toBe(0);
      } catch (error) {
        throw new Error(`${String(error)}\nworker logs:\n${workerLogs.join("")}`);
      } finally {
        await client.close();
      }
    }, 300_000);
  },
);
