import { type DurableClient, openDurableClient } from "@runvil/durable";
import type { CliIo } from "../io";
import { checkReachable, messageOf } from "./durable-database";

/**
 * Opens the durable runs database for `runvil {command}`: checks the server answers first (a
 * clear error within seconds, not DBOS's minutes of retries), then opens a client. On failure it
 * writes `runvil {command}: cannot open the durable runs database: {why}` and returns undefined.
 */
export async function openClientFor(
  command: string,
  database: string,
  io: CliIo,
): Promise<DurableClient | undefined> {
  try {
    await checkReachable(database);
    return await openDurableClient(database);
  } catch (error) {
    io.stderr(`runvil ${command}: cannot open the durable runs database: ${messageOf(error)}\n`);
    return undefined;
  }
}
