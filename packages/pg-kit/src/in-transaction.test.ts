import { afterAll, describe, expect, it } from "vitest";
import { inTransaction } from "./in-transaction";
import { openPool } from "./open-pool";
import { dropSchema, freshName, serverUrl, skipReason, suiteName } from "./testing";

const schema = freshName("runvil_pg_kit_tx");
const pool =
  skipReason === undefined ? openPool(serverUrl(), { schema, maxConnections: 2 }) : undefined;
afterAll(async () => {
  await pool?.end();
  await dropSchema(schema);
});

describe.skipIf(skipReason !== undefined)(suiteName("inTransaction"), () => {
  it("commits what the work did and returns its value; rolls all of it back on a failure and rethrows it", async () => {
    if (pool === undefined) throw new Error("no pool");
    await pool.query(`CREATE SCHEMA ${schema}`);
    await pool.query(`CREATE TABLE ${schema}.notes (id INTEGER PRIMARY KEY)`);
    const value = await inTransaction(pool, async (client) => {
      await client.query(`INSERT INTO ${schema}.notes VALUES (1)`);
      return "done";
    });
    expect(value).toBe("done");
    const failure = new Error("the work failed");
    await expect(
      inTransaction(pool, async (client) => {
        await client.query(`INSERT INTO ${schema}.notes VALUES (2)`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    const rows = await pool.query<{ id: number }>(`SELECT id FROM ${schema}.notes ORDER BY id`);
    expect(rows.rows.map((row) => row.id)).toEqual([1]);
    // Every client went back to the pool.
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});
