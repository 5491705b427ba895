import { writeFile } from "node:fs/promises";
import type { Divergence } from "@runvil/journal";
import type { RunResult, RunUsage, TokenUsage } from "@runvil/protocol";
import type { InputBroker } from "@runvil/sdk";
import { formatRefusal } from "../format-parse-error";
import type { CliIo } from "../io";
import { losslessJson } from "../lossless-json";
import { readFailureMessage } from "../read-failure";
import type { RunEnd, RunHandle, RunListeners } from "../run/run-handle";
import type { RunRequest } from "../run/run-request";
import { printCostLine } from "./cost-line";
import { inputModeUsageError, lendsBroker, operatorBroker, parseInputMode } from "./input-mode";
import { parseModelOverrides } from "./model-overrides";
import { ProgressLine } from "./progress-line";
import { parseSeed, randomSeed, seedUsageError } from "./run-seed";

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
  /** The Host configuration file; absent: the nearest runvil.config.json, else the default Host. */
  readonly config?: string;
  /** Where the input broker comes from: `auto` (default), `stdin` or `none`. */
  readonly input?: string;
  /** `--model role=id`, each as typed. */
  readonly model?: readonly string[];
  /** Print one JSON object instead of text. */
  readonly json: boolean;
  /** The stop deadline in milliseconds as typed (default 10000; docs/design/stop.md). */
  readonly stopDeadline?: string;
  /** `--no-record` sets it false: the run is not recorded in the journal. Absent: recorded. */
  readonly record?: boolean;
  /** `--journal FILE|URL`: the journal to record into (docs/design/journal.md). */
  readonly journal?: string;
  /** `--cost`: print the model usage line on stderr at the end even when it is not a terminal. */
  readonly cost?: boolean;
  /** An OTLP/HTTP traces endpoint to send the run's spans to (docs/design/otel.md). */
  readonly otel?: string;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * What `runvil resume` hands `runvil run`'s machinery (docs/design/resume.md): the run to
 * continue, its journal, and the prompt's bytes when the file is gone (else the file is read).
 */
export interface ResumeTarget {
  readonly runId: string;
  readonly journal: string;
  readonly bytes?: Uint8Array;
  /** `--force`: take over a run a process on another host records. */
  readonly force?: boolean;
}

/** The exit code of a cancelled run (128 + SIGINT). */
export const CANCELLED_EXIT_CODE = 130;

/** The exit code of a stopped run (128 + SIGTERM; outcome `cancelled`, docs/design/stop.md). */
export const STOPPED_EXIT_CODE = 143;

/** The stderr line of a cancelled run. */
export const CANCELLED_MESSAGE = "run cancelled";

/** The stderr line of a stopped run (SIGTERM). */
export const STOPPED_MESSAGE = "run stopped";

/** The stderr line of a cancelled run whose thread had to be terminated after the grace period. */
export const TERMINATED_MESSAGE =
  "run cancelled (it did not stop within the grace period; its thread was terminated)";

/** The stderr line of a stopped run the stop deadline escalated to a cancel (docs/design/stop.md). */
export const STOP_ESCALATED_MESSAGE =
  "run stopped (it did not end within the stop deadline, so it was cancelled)";

/** The stderr line of a stopped run whose thread was terminated after the escalated cancel. */
export const STOP_TERMINATED_MESSAGE =
  "run stopped (it did not end within the stop deadline nor the cancel's grace period; its thread was terminated)";

/** The stderr text of a failed run: `{Kind} error: {message}`, then one `cause: …` line each. */
export function formatRunFailure(result: Extract<RunResult, { outcome: "failed" }>): string {
  const lines = [`${result.error.kind} error: ${result.error.message}`];
  for (const cause of result.error.causes) lines.push(`cause: ${cause}`);
  return `${lines.join("\n")}\n`;
}

/**
 * The `usage` of a `runvil run --json` object (docs/design/cli.md "`runvil run --json`"): the
 * run's model rounds, tokens and cost in all (`total`) and by catalog model (`byModel`, keys
 * sorted), each a TokenUsage as the run result holds it (`costUsd` exact decimal text, null when
 * a round ran on a model without prices).
 */
export function usageJson(usage: RunUsage): {
  total: TokenUsage;
  byModel: Record<string, TokenUsage>;
} {
  return { total: usage.total, byModel: { ...usage.byModel } };
}

/**
 * The `--json` usage of a refused prepare (no round ran). Spelled out rather than imported as
 * protocol's `NO_RUN_USAGE`: this module is on `runvil run`'s start-up path, whose main thread
 * loads as little as it can (cli.md "The worker") and does not load @runvil/protocol.
 */
const NO_USAGE = {
  total: {
    rounds: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    costUsd: "0",
    unpricedRounds: 0,
  },
  byModel: {},
} as const;

/**
 * The `runvil run --json` object: outcome, result or error (`stopped: true` for a stopped
 * run), the final `var`, and the run's `usage` (its tokens and cost).
 */
export function runResultJson(result: RunResult): Record<string, unknown> {
  const usage = usageJson(result.usage);
  if (result.outcome === "succeeded") {
    return { outcome: result.outcome, result: result.result, var: result.var, usage };
  }
  if (result.outcome === "failed") {
    return { outcome: result.outcome, error: result.error, var: result.var, usage };
  }
  if (result.stopped === true) {
    return { outcome: result.outcome, stopped: true, var: result.var, usage };
  }
  return { outcome: result.outcome, var: result.var, usage };
}

/** The `runvil run --json` object of a run its Host refused at prepare. */
export function refusalJson(notice: string): Record<string, unknown> {
  return {
    outcome: "failed",
    error: { kind: "RequirementsUnmet", message: notice, causes: [] },
    var: {},
    usage: NO_USAGE,
  };
}

async function startRun(
  request: RunRequest,
  listeners: RunListeners & { broker?: InputBroker; stopDeadlineMs?: number },
  io: CliIo,
): Promise<RunHandle> {
  if (io.runInWorker === true) {
    const { startWorkerRun } = await import("../worker/worker-run");
    return startWorkerRun(request, listeners);
  }
  const { startLocalRun } = await import("../run/local-run");
  return startLocalRun(request, listeners);
}

/**
 * `runvil run FILE`: parses the prompt, prepares it against the Host (docs/design/cli.md) and
 * runs it with a store (a directory or memory), in a worker thread when `io.runInWorker`.
 * Resolves to 0 (succeeded), 1 (parse error, unreadable file, Host or config error, refused
 * prepare, failed run), 2 (bad option), 130 (cancelled: Ctrl-C) or 143 (stopped: SIGTERM,
 * docs/design/stop.md).
 */
export async function runCommand(
  file: string,
  options: RunCommandOptions,
  io: CliIo,
  resume?: ResumeTarget,
): Promise<number> {
  let seed: bigint;
  if (options.seed === undefined) {
    seed = randomSeed();
  } else {
    const given = parseSeed(options.seed);
    if (given === undefined) {
      io.stderr(`${seedUsageError(options.seed)}\n`);
      return 2;
    }
    seed = given;
  }
  let stopDeadlineMs: number | undefined;
  if (options.stopDeadline !== undefined) {
    stopDeadlineMs = Number(options.stopDeadline);
    if (!/^[0-9]+$/.test(options.stopDeadline) || !Number.isSafeInteger(stopDeadlineMs)) {
      io.stderr(
        `--stop-deadline must be a whole number of milliseconds, got ${options.stopDeadline}\n`,
      );
      return 2;
    }
  }
  if (options.otel !== undefined && !isHttpUrl(options.otel)) {
    io.stderr(
      `--otel must be the http(s) URL of an OTLP traces endpoint (such as http://localhost:4318/v1/traces), got ${options.otel}\n`,
    );
    return 2;
  }
  const inputMode = parseInputMode(options.input);
  if (inputMode === undefined) {
    io.stderr(`${inputModeUsageError(options.input ?? "")}\n`);
    return 2;
  }
  const overrides = parseModelOverrides(options.model ?? []);
  if (!overrides.ok) {
    io.stderr(`${overrides.message}\n`);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    bytes = resume?.bytes ?? (await io.readFile(file));
  } catch (error) {
    io.stderr(`${file}: ${readFailureMessage(error)}\n`);
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

  const progress = io.stderrIsTTY === true ? new ProgressLine(io.stderr) : undefined;
  const operator = lendsBroker(inputMode, io);
  const request: RunRequest = {
    file,
    bytes,
    args: options.args ?? "",
    seed,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.config === undefined ? {} : { configFile: options.config }),
    operator,
    eventLines: false,
    ...(eventsFile === undefined ? {} : { eventsFile }),
    progress: progress !== undefined,
    ...(options.record === false
      ? {}
      : { record: options.journal === undefined ? {} : { journal: options.journal } }),
    ...(resume === undefined
      ? {}
      : {
          resume: {
            runId: resume.runId,
            journal: resume.journal,
            ...(resume.force === true ? { force: true } : {}),
          },
        }),
    ...(Object.keys(overrides.models).length === 0 ? {} : { models: overrides.models }),
    ...(options.otel === undefined ? {} : { otelEndpoint: options.otel }),
  };
  const broker = operator ? operatorBroker(io, () => progress?.clear()) : undefined;
  const handle = await startRun(
    request,
    {
      onProgress: (text) => progress?.show(text),
      onToolError: (toolId, text) => {
        progress?.clear();
        io.stderr(`tool ${toolId} failed unexpectedly (the run sees a generic failure): ${text}\n`);
      },
      onModelError: (model, text) => {
        progress?.clear();
        io.stderr(
          `model round on ${model} failed unexpectedly (the run sees a generic failure): ${text}\n`,
        );
      },
      ...(broker === undefined ? {} : { broker }),
      ...(stopDeadlineMs === undefined ? {} : { stopDeadlineMs }),
    },
    io,
  );

  let interrupts = 0;
  const stopListening = io.onInterrupt?.(() => {
    interrupts += 1;
    if (interrupts === 1) {
      handle.cancel();
      return;
    }
    // A second Ctrl-C: leave at once; the events file keeps what the run wrote so far.
    progress?.clear();
    if (!options.json) io.stderr(`${CANCELLED_MESSAGE}\n`);
    (io.exit ?? process.exit)(CANCELLED_EXIT_CODE);
  });
  // SIGTERM stops the run (not a cancel); a Ctrl-C afterwards still cancels it.
  const stopTerminating = io.onTerminate?.(() => handle.stop());

  let end: RunEnd;
  try {
    end = await handle.done;
  } finally {
    stopListening?.();
    stopTerminating?.();
    progress?.clear();
  }
  // Loaded only for a resume: a run's start does not load the replay command.
  const describe = resume === undefined ? undefined : (await import("./replay")).formatDivergence;
  const code = printEnd(end, options.json, file, io, describe);
  printCostLine(end, { cost: options.cost === true, json: options.json }, io);
  return code;
}

function printEnd(
  end: RunEnd,
  json: boolean,
  file: string,
  io: CliIo,
  describe?: (id: string, divergence: Divergence) => string,
): number {
  if (end.afterStop === true) return printEscalatedStop(end, json, file, io);
  if (end.kind === "terminated") {
    if (json) io.stdout(`${losslessJson({ outcome: "cancelled" })}\n`);
    else io.stderr(`${TERMINATED_MESSAGE}\n`);
    return CANCELLED_EXIT_CODE;
  }
  const report = end.report;
  switch (report.kind) {
    case "parse-error":
    case "host-error":
    case "journal-error":
      io.stderr(`${report.text}\n`);
      return 1;
    case "refused":
      if (json) io.stdout(`${losslessJson(refusalJson(report.notice))}\n`);
      else io.stderr(`${formatRefusal(file, report.notice)}\n`);
      return 1;
    case "finished":
      if (report.eventsFileError !== undefined) {
        io.stderr(`${report.eventsFileError}\n`);
      }
      if (report.otelError !== undefined) io.stderr(`${report.otelError}\n`);
      break;
  }
  const result = report.result;
  if (report.recorded?.warning !== undefined) io.stderr(`${report.recorded.warning}\n`);
  const resumed = report.resumed;
  if (resumed !== undefined && report.recorded !== undefined) {
    const id = report.recorded.runId;
    if (resumed.divergence !== undefined && describe !== undefined) {
      if (json) {
        io.stdout(
          `${losslessJson({ outcome: "diverged", run: id, divergence: resumed.divergence })}\n`,
        );
      } else {
        io.stderr(
          `${describe(id, resumed.divergence)}\n${id}: not resumed: the prompt or the Engine changed since the recording (the record was left as it was)\n`,
        );
      }
      return 1;
    }
    const { divergence: _, ...counts } = resumed;
    if (json) {
      io.stdout(`${losslessJson({ ...runResultJson(result), resumed: { run: id, ...counts } })}\n`);
    } else {
      const applied =
        counts.foundApplied === 0 ? "" : `, ${counts.foundApplied} store changes found applied`;
      io.stderr(
        `resumed ${id}: ${counts.answered} effects answered by the journal, ${counts.live} run live${applied}\n`,
      );
    }
  } else if (json) io.stdout(`${losslessJson(runResultJson(result))}\n`);
  if (result.outcome === "succeeded") {
    if (!json && result.result !== null) io.stdout(`${result.result}\n`);
    return 0;
  }
  if (result.outcome === "failed") {
    if (!json) io.stderr(formatRunFailure(result));
    return 1;
  }
  if (result.stopped === true) {
    if (!json) io.stderr(`${STOPPED_MESSAGE}\n`);
    return STOPPED_EXIT_CODE;
  }
  if (!json) io.stderr(`${CANCELLED_MESSAGE}\n`);
  return CANCELLED_EXIT_CODE;
}

/**
 * A stopped run the stop deadline escalated to a cancel: still a stop for whoever sent it
 * (exit 143, `stopped: true`), with what happened on stderr. A run that ended otherwise while
 * the cancel was on its way (it succeeded, failed, or never started) prints as it ended.
 */
function printEscalatedStop(end: RunEnd, json: boolean, file: string, io: CliIo): number {
  let read: Record<string, unknown> = {};
  if (end.kind === "report") {
    const report = end.report;
    if (report.kind !== "finished" || report.result.outcome !== "cancelled") {
      return printEnd({ kind: "report", report }, json, file, io);
    }
    read = { var: report.result.var, usage: usageJson(report.result.usage) };
  }
  if (json) {
    io.stdout(`${losslessJson({ outcome: "cancelled", stopped: true, ...read })}\n`);
  } else {
    io.stderr(`${end.kind === "terminated" ? STOP_TERMINATED_MESSAGE : STOP_ESCALATED_MESSAGE}\n`);
  }
  return STOPPED_EXIT_CODE;
}
