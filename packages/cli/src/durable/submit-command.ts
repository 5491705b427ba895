import { resolve } from "node:path";
import { DurableError } from "@runvil/durable";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import type { RunResult } from "@runvil/protocol";
import { parseModelOverrides } from "../commands/model-overrides";
import { formatRunFailure, runResultJson } from "../commands/run";
import { formatParseError } from "../format-parse-error";
import type { CliIo } from "../io";
import { losslessJson } from "../lossless-json";
import { readFailureMessage } from "../read-failure";
import { databaseUsageError, durableFailureText } from "./durable-database";
import { submitOptionsJson } from "./durable-options";
import { openClientFor } from "./open-client";

/** Options of `runvil submit`, as typed. */
export interface SubmitCommandOptions {
  readonly database?: string;
  readonly args?: string;
  readonly seed?: string;
  readonly config?: string;
  readonly model?: readonly string[];
  readonly wait?: boolean;
  readonly json?: boolean;
}

/** The largest seed a durable run takes (its input is JSON: 2^53 − 1). */
const MAX_DURABLE_SEED = Number.MAX_SAFE_INTEGER;

/** A random seed a durable run takes: the run's nonce derives from it (tools chapter). */
function randomDurableSeed(): number {
  const bytes = crypto.getRandomValues(new Uint32Array(2));
  return ((bytes[0] ?? 0) & 0x1fffff) * 2 ** 32 + (bytes[1] ?? 0);
}

/** Prints a finished run's result like `runvil run`, and gives its exit code. */
export function printDurableResult(result: RunResult, json: boolean, io: CliIo): number {
  if (json) io.stdout(`${losslessJson(runResultJson(result))}\n`);
  if (result.outcome === "succeeded") {
    if (!json && result.result !== null) io.stdout(`${result.result}\n`);
    return 0;
  }
  if (result.outcome === "failed") {
    if (!json) io.stderr(formatRunFailure(result));
    return 1;
  }
  if (!json) io.stderr(result.stopped === true ? "run stopped\n" : "run cancelled\n");
  return result.stopped === true ? 143 : 130;
}

/**
 * `runvil submit FILE --database URL`: checks that the prompt parses, enqueues it as a durable
 * run and prints its id; with `--wait`, waits for a worker to finish it and prints its result
 * as `runvil run` would (exit code likewise). The prompt's text travels with the run; its path
 * and `--config` go as absolute paths, for a worker with the same checkout.
 */
export async function submitCommand(
  file: string,
  options: SubmitCommandOptions,
  io: CliIo,
): Promise<number> {
  const usage = databaseUsageError(options.database);
  if (usage !== undefined) {
    io.stderr(`${usage}\n`);
    return 2;
  }
  let seed: number | undefined;
  if (options.seed !== undefined) {
    seed = /^[0-9]+$/.test(options.seed) ? Number(options.seed) : Number.NaN;
    if (!Number.isSafeInteger(seed) || seed > MAX_DURABLE_SEED) {
      io.stderr(
        `error: --seed of a durable run must be a whole number from 0 to ${MAX_DURABLE_SEED} (2^53 - 1), got ${JSON.stringify(options.seed)}\n`,
      );
      return 2;
    }
  }
  const models = parseModelOverrides(options.model ?? []);
  if (!models.ok) {
    io.stderr(`${models.message}\n`);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(file);
  } catch (error) {
    io.stderr(`${file}: ${readFailureMessage(error)}\n`);
    return 1;
  }
  const parsed = createPromptParser(await loadLuaRuntime())(bytes, { path: file });
  if (!parsed.ok) {
    io.stderr(`${formatParseError(file, parsed.error)}\n`);
    return 1;
  }
  const client = await openClientFor("submit", options.database as string, io);
  if (client === undefined) return 1;
  try {
    const runId = await client.submit({
      prompt: { path: resolve(file), text: new TextDecoder().decode(bytes) },
      args: options.args ?? "",
      seed: seed ?? randomDurableSeed(),
      options: submitOptionsJson({
        ...(options.config === undefined ? {} : { config: resolve(options.config) }),
        ...(Object.keys(models.models).length === 0 ? {} : { models: models.models }),
      }),
    });
    if (options.wait !== true) {
      io.stdout(options.json === true ? `${losslessJson({ runId })}\n` : `${runId}\n`);
      return 0;
    }
    if (options.json !== true) io.stderr(`submitted ${runId}; waiting for a worker\n`);
    return printDurableResult(await client.result(runId), options.json === true, io);
  } catch (error) {
    const reason = error instanceof DurableError ? ` (${error.reason})` : "";
    io.stderr(`runvil submit: ${durableFailureText(error)}${reason}\n`);
    return 1;
  } finally {
    await client.close().catch(() => {});
  }
}
