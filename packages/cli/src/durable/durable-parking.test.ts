import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import { runCliProcess, sleep, WorkerSlot } from "./test-support/worker-processes";

/** Asks once, then returns the answer (no model, no config needed). */
const ASKING = `---
name: parked
description: Asks the operator once and returns the answer.
runvil: 0
uses: [user-input]
---

# Parked

\`\`\`lua
return 'answer: ' .. input.ask()
\`\`\`
`;

const PLAIN = `---
name: plain
description: Returns its argument.
runvil: 0
---

# Plain

\`\`\`lua
return 'plain ' .. args
\`\`\`
`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, log: () => string) {
  const end = Date.now() + 120_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}\n${log()}`);
    await sleep(200);
  }
}

describe.skipIf(skipReason !== undefined)(
  suiteName("runvil worker --park-after: runs waiting on asks leave their slot"),
  () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let dir: string;
    let worker: WorkerSlot | undefined;

    beforeAll(async () => {
      database = await freshDatabase();
      dir = mkdtempSync(join(tmpdir(), "runvil-parking-"));
      writeFileSync(join(dir, "asking.md"), ASKING);
      writeFileSync(join(dir, "plain.md"), PLAIN);
    });

    afterAll(async () => {
      await worker?.kill();
      await database?.drop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    it("parks two asking runs of a worker of concurrency 1, runs a plain one, lists them waiting and finishes them on answer", async () => {
      const cli = (...args: string[]) => runCliProcess([...args, "--database", database.url]);
      worker = new WorkerSlot(
        "parking-w1",
        ["--database", database.url, "--concurrency", "1", "--park-after", "0"],
        process.env,
      );
      worker.start();
      const slot = worker;
      const log = () => slot.log.join("");
      await slot.waitForLog("taking runs (concurrency 1, parks asks after 0 ms");

      const submit = async (file: string, args: string): Promise<string> => {
        const done = await cli("submit", join(dir, file), "--args", args);
        expect(done.stderr).toBe("");
        expect(done.code).toBe(0);
        return done.stdout.trim();
      };
      const asking = [await submit("asking.md", "a"), await submit("asking.md", "b")];
      for (const runId of asking) await slot.waitForLog(`parked run ${runId} on its ask`);

      // One slot, two runs waiting on asks: the plain run still gets it.
      const plain = await cli("submit", join(dir, "plain.md"), "--args", "p", "--wait");
      expect(plain.stderr).toMatch(/^submitted \S+; waiting for a worker\n$/);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toBe("plain p\n");

      const listed = await cli("runs", "list");
      expect(listed.code).toBe(0);
      for (const runId of asking) {
        expect(listed.stdout).toMatch(
          new RegExp(`\\n${runId} +waiting \\(ask \\S+\\) +parking-w1 +\\S*asking\\.md`),
        );
      }
      expect(listed.stdout).not.toContain("cancelled");

      for (const [i, runId] of asking.entries()) {
        const answered = await cli("answer", runId, `yes ${i}`);
        expect(answered.stderr).toBe("");
        expect(answered.code).toBe(0);
        expect(answered.stdout).toMatch(
          new RegExp(`^answered \\S+ of run ${runId} \\(it was parked: back on the queue\\)\\n$`),
        );
      }
      const finished = await until(
        "both answered runs finished",
        async () => {
          const runs = await cli("runs", "list", "--json");
          const parsed = JSON.parse(runs.stdout) as { runId: string; state: string }[];
          const done = parsed.filter((r) => asking.includes(r.runId) && r.state === "finished");
          return done.length === 2 ? parsed : undefined;
        },
        log,
      );
      expect(finished.filter((r) => r.state === "finished")).toHaveLength(3);
      const late = await cli("answer", asking[0] as string, "again");
      expect(late.code).toBe(1);
      expect(late.stderr).toContain("is finished: there is no question to answer (not_waiting)");
      expect(log()).not.toMatch(/cannot park|unhandled|uncaught/i);
    });
  },
);
