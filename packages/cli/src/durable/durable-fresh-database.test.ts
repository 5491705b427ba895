import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import { runCliProcess, WorkerSlot } from "./test-support/worker-processes";

const PROMPT = `---
name: fresh
description: Writes its argument to the store and returns it.
runvil: 0
---

# Fresh

\`\`\`lua
store.write('arg.txt', args)
return 'got ' .. args
\`\`\`
`;

/** Rounds of three workers and a submit started at once, each on a database of its own. */
const ROUNDS = 2;

describe.skipIf(skipReason !== undefined)(
  suiteName("three workers and a submit preparing a brand-new database at the same instant"),
  () => {
    const dir = mkdtempSync(join(tmpdir(), "runvil-durable-fresh-"));
    const databases: Awaited<ReturnType<typeof freshDatabase>>[] = [];
    const workers: WorkerSlot[] = [];

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.kill()));
      await Promise.all(databases.map((database) => database.drop()));
      rmSync(dir, { recursive: true, force: true });
    });

    it("all come up (no duplicate-table or lock errors) and the run completes", async () => {
      const prompt = join(dir, "fresh.md");
      writeFileSync(prompt, PROMPT);
      for (let round = 1; round <= ROUNDS; round++) {
        const database = await freshDatabase();
        databases.push(database);
        const started = ["a", "b", "c"].map((name) => {
          const worker = new WorkerSlot(`fresh-${round}-${name}`, ["--database", database.url], {
            ...process.env,
          });
          workers.push(worker);
          return worker;
        });
        // The same instant: the submit's process and the workers' are spawned together.
        const submitted = runCliProcess([
          "submit",
          prompt,
          "--database",
          database.url,
          "--args",
          `round ${round}`,
          "--seed",
          "7",
          "--wait",
        ]);
        for (const worker of started) worker.start();
        const logs = (): string => started.map((w) => w.log.join("")).join("\n");
        await Promise.all(started.map((worker) => worker.waitForLog("taking runs", 120_000)));
        const done = await submitted;
        expect(done.stderr, logs()).toMatch(/^submitted \S+; waiting for a worker\n$/);
        expect(done.stdout, logs()).toBe(`got round ${round}\n`);
        expect(done.code).toBe(0);
        for (const worker of started) {
          expect(worker.exitedBy, logs()).toBeUndefined();
          expect(await worker.terminate(), logs()).toBe(0);
        }
        expect(logs()).not.toMatch(/cannot start|duplicate|already exists|concurrently|Warning/);
      }
    }, 300_000);
  },
);
