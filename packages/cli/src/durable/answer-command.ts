import { DurableError, openDurableClient } from "@runvil/durable";
import type { CliIo } from "../io";
import {
  checkReachable,
  databaseUsageError,
  durableFailureText,
  isUnpreparedDatabase,
  messageOf,
  quietDependencyDeprecations,
} from "./durable-database";

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
  quietDependencyDeprecations();
  const usage = databaseUsageError(options.database);
  if (usage !== undefined) {
    io.stderr(`${usage}\n`);
    return 2;
  }
  let client: Awaited<ReturnType<typeof openDurableClient>>;
  try {
    await checkReachable(options.database as string);
    client = await openDurableClient(options.database as string);
  } catch (error) {
    io.stderr(`runvil answer: cannot open the durable runs database: ${messageOf(error)}\n`);
    return 1;
  }
  try {
    const { ask } = await client.answer(runId, text);
    io.stdout(`answered ${ask} of run ${runId}\n`);
    return 0;
  } catch (error) {
    const reason = error instanceof DurableError ? ` (${error.reason})` : "";
    io.stderr(`runvil answer: ${durableFailureText(error)}${reason}\n`);
    return 1;
  } finally {
    await client.close().catch(() => {});
  }
}
