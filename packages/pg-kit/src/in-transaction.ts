import type * as Pg from "pg";

/**
 * Runs `work` on one client of `pool` inside one transaction: commits what it did and returns
 * its value; on any failure rolls it back and rethrows the failure as it is. While the client is
 * out, its `error` event is heard (a connection lost mid-transaction fails the query in flight
 * instead of crashing the process as an unheard event).
 */
export async function inTransaction<T>(
  pool: Pg.Pool,
  work: (client: Pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const ignore = (): void => {};
  client.on("error", ignore);
  try {
    await client.query("BEGIN");
    const value = await work(client);
    await client.query("COMMIT");
    return value;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.off("error", ignore);
    client.release();
  }
}
