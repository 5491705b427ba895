import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";
import { WorkerRegistry } from "./worker-registry";

describe.skipIf(skipReason !== undefined)(suiteName("the worker registry"), () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  const open: WorkerRegistry[] = [];
  const registry = async (id: string): Promise<WorkerRegistry> => {
    const made = await WorkerRegistry.open(database.url, "runvil", id);
    open.push(made);
    return made;
  };

  beforeAll(async () => {
    database = await freshDatabase();
  });

  afterAll(async () => {
    await Promise.all(open.map((r) => r.close()));
    await database?.drop();
  });

  it("lets exactly one live worker claim a silent one, and hands it the dead ids", async () => {
    const dead = await registry("dead");
    await dead.register("1.0.0");
    await dead.abandon(); // silent since the epoch, as a worker gone for good
    const a = await registry("a");
    const b = await registry("b");
    await a.register("1.0.0");
    await b.register("1.0.0");
    const calls: string[][] = [];
    const recover = async (ids: readonly string[]) => {
      calls.push([...ids]);
      return ids.map((id) => `${id}-run`);
    };
    const [fromA, fromB] = await Promise.all([
      a.recoverDead(5, recover),
      b.recoverDead(5, recover),
    ]);
    const claims = [fromA, fromB].filter((claim) => claim !== undefined);
    expect(claims).toEqual([{ executorIds: ["dead"], recovered: ["dead-run"] }]);
    expect(calls).toEqual([["dead"]]);
    expect(await a.recoverDead(5, recover)).toBeUndefined();
    const rows = await a.list();
    expect(rows.map((row) => [row.executorId, row.stopped])).toEqual([
      ["a", false],
      ["b", false],
      ["dead", true],
    ]);
    expect(rows[0]?.silentSeconds).toBeLessThan(5);
  });

  it("rolls a claim back when recovery fails, so the next look claims it again", async () => {
    const gone = await registry("gone");
    await gone.register("1.0.0");
    await gone.abandon();
    const c = await registry("c");
    await c.register("1.0.0");
    await expect(
      c.recoverDead(5, async () => {
        throw new Error("queue unreachable");
      }),
    ).rejects.toThrow("queue unreachable");
    expect(await c.recoverDead(5, async (ids) => ids.length)).toEqual({
      executorIds: ["gone"],
      recovered: 1,
    });
  });

  it("a worker started again with its id takes its row back and is live", async () => {
    const first = await registry("again");
    await first.register("1.0.0");
    await first.abandon();
    const second = await registry("again");
    await second.register("1.0.1");
    const other = await registry("watcher");
    await other.register("1.0.1");
    expect(await other.recoverDead(5, async () => "claimed")).toBeUndefined();
    const row = (await other.list()).find((r) => r.executorId === "again");
    expect(row).toMatchObject({ runvilVersion: "1.0.1", stopped: false, pid: process.pid });
  });
});
