import { writeFile } from "node:fs/promises";
import { formatEventLine, loadEngine, type RunEvent, type RunResult } from "@runvil/engine";
import { DirectoryStore, MemoryStore, RunPort } from "@runvil/harness";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import type { CliIo } from "../io";
import { losslessJson } from "../lossless-json";
import { readFailureMessage } from "../read-failure";
import { formatParseError } from "./check";
import { ProgressLine } from "./progress-line";
import { parseSeed, seedUsageError } from "./run-seed";

/** Options of `runvil run`, as given on the command line. */
export interface RunCommandOptions {
  /** The argument string (`args`); absent: `''`. */
  readonly args?: string;
  /** A store directory (DirectoryStore); absent: an in-memory store for this run. */
  readonly store?: string;
  /** A file to write every event to, as JSON Lines. */
  readonly events?: string;
  /** The run seed as typed: a whole number from 0 to 2^64 − 1. */
  readonly seed?: string;
  /** Print one JSON object instead of text. */
  readonly json: boolean;
}

/** The exit code of a cancelled run (128 + SIGINT). */
export const CANCELLED_EXIT_CODE = 130;

/** The stderr text of a failed run: `{Kind} error: {message}`, then one `cause: …` line each. */
export function formatRunFailure(result: Extract<RunResult, { outcome: "failed" }>): string {
  const lines = [`${result.error.kind} error: ${result.error.message}`];
  for (const cause of result.error.causes) lines.push(`cause: ${cause}`);
  return `${lines.join("\n")}\n`;
}

/** The `runvil run --json` object: outcome, result or error, and the final `var`. */
export function runResultJson(result: RunResult): Record<string, unknown> {
  if (result.outcome === "succeeded") {
    return { outcome: result.outcome, result: result.result, var: result.var };
  }
  if (result.outcome === "failed") {
    return { outcome: result.outcome, error: result.error, var: result.var };
  }
  return { outcome: result.outcome, var: result.var };
}

/**
 * `runvil run FILE`: parses the prompt and runs it with a store (a directory or memory).
 * Resolves to 0 (succeeded), 1 (parse error, unreadable file, failed run), 2 (bad option) or
 * 130 (cancelled).
 */
export async function runCommand(
  file: string,
  options: RunCommandOptions,
  io: CliIo,
): Promise<number> {
  let seed: bigint | undefined;
  if (options.seed !== undefined) {
    seed = parseSeed(options.seed);
    if (seed === undefined) {
      io.stderr(`${seedUsageError(options.seed)}\n`);
      return 2;
    }
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
  const eventsFile = options.events;
  if (eventsFile !== undefined) {
    try {
      await writeFile(eventsFile, "");
    } catch (error) {
      io.stderr(`${eventsFile}: cannot write the events file (${readFailureMessage(error)})\n`);
      return 1;
    }
  }

  const lines: string[] = [];
  const progress = io.stderrIsTTY === true ? new ProgressLine(io.stderr) : undefined;
  const onEvent = (event: RunEvent): void => {
    if (eventsFile !== undefined) lines.push(formatEventLine(event));
    progress?.update(event);
  };
  const store = options.store === undefined ? new MemoryStore() : new DirectoryStore(options.store);
  const effects = new RunPort(store, { onEvent, yieldToEventLoop: true });

  const controller = new AbortController();
  let cancelRequested = false;
  let interrupts = 0;
  const stopListening = io.onInterrupt?.(() => {
    interrupts += 1;
    if (interrupts === 1) {
      cancelRequested = true;
      controller.abort();
      return;
    }
    progress?.clear();
    process.exit(CANCELLED_EXIT_CODE);
  });

  let result: RunResult;
  try {
    const engine = await loadEngine();
    result = await engine.run(parsed.prompt, {
      effects,
      args: options.args ?? "",
      ...(seed === undefined ? {} : { seed }),
      signal: controller.signal,
      shouldCancel: () => cancelRequested,
    });
  } finally {
    stopListening?.();
    progress?.clear();
    if (eventsFile !== undefined) await writeFile(eventsFile, lines.join(""));
  }

  if (options.json) io.stdout(`${losslessJson(runResultJson(result))}\n`);
  if (result.outcome === "succeeded") {
    if (!options.json && result.result !== null) io.stdout(`${result.result}\n`);
    return 0;
  }
  if (result.outcome === "failed") {
    if (!options.json) io.stderr(formatRunFailure(result));
    return 1;
  }
  if (!options.json) io.stderr("run cancelled\n");
  return CANCELLED_EXIT_CODE;
}
