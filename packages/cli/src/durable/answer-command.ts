import { DurableError } from "@runvil/durable";
import type { CliIo } from "../io";
import { databaseUsageError, durableFailureText } from "./durable-database";
import { openClientFor } from "./open-client";

/**
 * `runvil answer RUN TEXT --database URL`: delivers the operator's answer to the oldest ask the
 * durable run waits on; the run goes on in whichever worker takes it. A run that waits on no ask
 * (or does not exist) is refused, naming why, and nothing is delivered.
 */
export async function answerCommand(
  runId: string,
  text: string,
  options: { readonly database?: string },
  io: CliIo,
): Promise<number> {
  const usage = databaseUsageError(options.database);
  if (usage !== undefined) {
    io.stderr(`${usage}\n`);
    return 2;
  }
  const client = await openClientFor("answer", options.database as string, io);
  if (client === undefined) return 1;
  try {
    const { ask, resumed } = await client.answer(runId, text);
    io.stdout(
      `answered ${ask} of run ${runId}${resumed ? " (it was parked: back on the queue)" : ""}\n`,
    );
    return 0;
  } catch (error) {
    const reason = error instanceof DurableError ? ` (${error.reason})` : "";
    io.stderr(`runvil answer: ${durableFailureText(error)}${reason}\n`);
    return 1;
  } finally {
    await client.close().catch(() => {});
  }
}
