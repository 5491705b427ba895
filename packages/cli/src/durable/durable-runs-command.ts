import type { DurableRunStatus } from "@runvil/durable";
import type { CliIo } from "../io";
import { losslessJson } from "../lossless-json";
import { databaseUsageError, durableFailureText, isUnpreparedDatabase } from "./durable-database";
import { openClientFor } from "./open-client";

const COLUMNS = ["ID", "STATE", "WORKER", "PROMPT", "CREATED", "ATTEMPTS"];

function row(run: DurableRunStatus): string[] {
  return [
    run.runId,
    run.error !== undefined
      ? `${run.state} (${run.error})`
      : run.waitingOn !== undefined
        ? `${run.state} (ask ${run.waitingOn})`
        : run.state,
    run.executorId ?? "-",
    run.prompt ?? "-",
    new Date(run.createdAt).toISOString(),
    String(run.recoveryAttempts ?? 0),
  ];
}

function table(rows: readonly string[][]): string {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "),
    )
    .map((line) => `${line.trimEnd()}\n`)
    .join("");
}

/**
 * `runvil runs list --database URL`: the durable runs of that database, newest first: id, state
 * (enqueued, running — which includes waiting on an ask not parked yet, or on recovery —,
 * waiting — parked on an ask, named —, finished, failed, cancelled), the worker that took it last, the prompt, when it was submitted, how many times a worker started it (DBOS's
 * attempts: 1 for a run never interrupted).
 */
export async function durableRunsCommand(
  options: { readonly database?: string; readonly limit?: number; readonly json: boolean },
  io: CliIo,
): Promise<number> {
  const usage = databaseUsageError(options.database);
  if (usage !== undefined) {
    io.stderr(`${usage}\n`);
    return 2;
  }
  const client = await openClientFor("runs", options.database as string, io);
  if (client === undefined) return 1;
  try {
    const runs = await client.list(options.limit === undefined ? {} : { limit: options.limit });
    if (options.json) io.stdout(`${losslessJson(runs)}\n`);
    else if (runs.length === 0) io.stdout("no durable runs in this database\n");
    else io.stdout(table([COLUMNS, ...runs.map(row)]));
    return 0;
  } catch (error) {
    if (isUnpreparedDatabase(error)) {
      io.stdout(
        options.json ? "[]\n" : "no durable runs in this database (no worker has run on it)\n",
      );
      return 0;
    }
    io.stderr(`runvil runs: ${durableFailureText(error)}\n`);
    return 1;
  } finally {
    await client.close().catch(() => {});
  }
}
