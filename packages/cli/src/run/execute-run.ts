import { resolve } from "node:path";
import { loadEngine } from "@runvil/engine";
import { DirectoryStore, MemoryStore, RunPort } from "@runvil/harness";
import { type HostConfig, modelPortFor, readHostConfig, toolDispatcherFor } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser, type Prompt } from "@runvil/parser";
import { type EffectPort, formatEventLine, type RunEvent, type RunResult } from "@runvil/protocol";
import { INPUT_BROKER, type InputBroker, ModelFailure, ToolFailure } from "@runvil/sdk";
import { formatHostError, formatParseError } from "../format-parse-error";
import { type CliHostResult, loadCliHost } from "../host/cli-host";
import { JOURNAL_ENV, journalLocation } from "../journal/journal-location";
import { type Recording, startRecording } from "../journal/record-run";
import { withModelHints } from "../model-hints";
import { type Resuming, startResuming } from "../resume/resume-recording";
import { startupMark } from "../startup-marks";
import { EventFileSink } from "./event-file-sink";
import type { RunListeners } from "./run-handle";
import { RunProgress } from "./run-progress";
import type { RunReport, RunRequest } from "./run-request";
import { toolErrorText } from "./tool-error-text";
import { traceEndpoint } from "./trace-endpoint";

/** What the thread that runs a request lends it besides the request itself. */
export interface RunSides extends RunListeners {
  /** The input broker to lend the run (when `request.operator`); absent: none. */
  readonly broker?: InputBroker;
  /** The shared cancel flag (a worker run). */
  readonly cancelFlag?: Int32Array;
  /** The cancel flag's index in `cancelFlag` (0). */
  readonly cancelFlagIndex?: number;
  /** An in-thread cancel check (an in-process run). */
  readonly shouldCancel?: () => boolean;
  /** Ends every wait of the run when aborted. */
  readonly signal?: AbortSignal;
  /** The shared stop flag (a worker run; docs/design/stop.md). */
  readonly stopFlag?: Int32Array;
  /** The stop flag's index in `stopFlag` (0). */
  readonly stopFlagIndex?: number;
  /** An in-thread stop check (an in-process run). */
  readonly shouldStop?: () => boolean;
  /** Stops the run when aborted (not a cancel). */
  readonly stopSignal?: AbortSignal;
  /** Let the event loop turn before each store operation (an in-process run sees Ctrl-C then). */
  readonly yieldToEventLoop?: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where the request records its run, or undefined for nowhere (docs/design/journal.md). */
function recordingLocation(
  request: RunRequest,
  config: { readonly file: string; readonly host: HostConfig } | undefined,
): string | undefined {
  if (request.record === undefined) return undefined;
  const env = process.env[JOURNAL_ENV];
  return journalLocation({
    ...(request.record.journal === undefined ? {} : { flag: request.record.journal }),
    ...(env === undefined ? {} : { env }),
    ...(config === undefined
      ? {}
      : { config: { file: config.file, journal: config.host.journal } }),
    cwd: process.cwd(),
  });
}

/**
 * Performs one `runvil run` request in the calling thread: parses the prompt, sets up the Host
 * (docs/design/cli.md), prepares the run against it, and runs it with the Engine, the store
 * and the Harness's tool dispatcher and model port. Resolves with how it ended; rejects only for a bug.
 */
export async function executeRun(request: RunRequest, sides: RunSides): Promise<RunReport> {
  startupMark("run request");
  const lua = await loadLuaRuntime();
  startupMark("lua runtime loaded");
  const parsed = createPromptParser(lua)(request.bytes, { path: request.file });
  startupMark("prompt parsed");
  if (!parsed.ok) {
    return { kind: "parse-error", text: formatParseError(request.file, parsed.error) };
  }

  const loaded = await loadCliHost({
    promptFile: request.file,
    ...(request.configFile === undefined ? {} : { configFile: request.configFile }),
  });
  startupMark("host loaded");
  if (!loaded.ok) {
    return { kind: "host-error", text: formatHostError(request.file, loaded.message) };
  }
  try {
    return await runOnHost(parsed.prompt, loaded, request, sides);
  } finally {
    // The Host ends with the run: the servers and connections its Packs hold close.
    await loaded.host.close();
    startupMark("host closed");
  }
}

async function runOnHost(
  prompt: Prompt,
  loaded: Extract<CliHostResult, { ok: true }>,
  request: RunRequest,
  sides: RunSides,
): Promise<RunReport> {
  const broker = request.operator ? sides.broker : undefined;
  const prepared = loaded.host.prepare(prompt, {
    services: broker === undefined ? {} : { [INPUT_BROKER]: broker },
    ...(request.models === undefined ? {} : { models: request.models }),
  });
  startupMark("prepared");
  if (!prepared.ok) {
    return { kind: "refused", notice: withModelHints(prepared.notice, loaded.host) };
  }

  const store = request.store === undefined ? new MemoryStore() : new DirectoryStore(request.store);
  const progress = request.progress ? new RunProgress() : undefined;
  const showProgress = (changed: boolean | undefined): void => {
    if (changed === true && progress !== undefined) sides.onProgress?.(progress.text);
  };
  let sink: EventFileSink | undefined;
  if (request.eventsFile !== undefined) {
    try {
      sink = new EventFileSink(request.eventsFile);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        kind: "host-error",
        text: `${request.eventsFile}: cannot write the events file (${why})`,
      };
    }
  }
  // The configuration file was read and checked when the Host was set up.
  const config =
    loaded.configFile === undefined
      ? undefined
      : { file: loaded.configFile, host: readHostConfig(loaded.configFile) };
  // Loaded only with --otel or otel.endpoint: a run without one loads nothing of OpenTelemetry.
  const endpoint = traceEndpoint(
    request.otelEndpoint,
    config === undefined ? undefined : { file: config.file, otel: config.host.otel },
  );
  const tracing =
    endpoint === undefined
      ? undefined
      : await (await import("./run-tracing")).startRunTracing(endpoint.url);
  const onEvent = (event: RunEvent): void => {
    tracing?.onEvent(event);
    if (request.eventLines || sink !== undefined) {
      const line = formatEventLine(event);
      sink?.write(line);
      if (request.eventLines) sides.onEventLine?.(line);
    }
    showProgress(progress?.event(event));
  };

  // The recorded run's id, known once the recording (or the resume) has started: lent to every
  // tool call as ToolContext.runId, beside its effect id.
  let recordedRunId: string | undefined;
  const tools = toolDispatcherFor(prepared.run, {
    store,
    runId: () => recordedRunId,
    // A ToolFailure's message already reached the run; only an unexpected exception is shown.
    onToolError: (toolId, error) => {
      if (!ToolFailure.isInstance(error)) sides.onToolError?.(toolId, toolErrorText(error));
    },
  });
  const models = modelPortFor(prepared.run, {
    // A ModelFailure's message already reached the run; an unexpected error is shown, and so is
    // the provider's own error behind a failure that carries one (the Host's log).
    onModelError: (error, round) => {
      if (!ModelFailure.isInstance(error)) sides.onModelError?.(round.model, toolErrorText(error));
      else if (error.cause !== undefined) {
        sides.onModelError?.(round.model, `${error.message}: ${toolErrorText(error.cause)}`);
      }
    },
  });
  const port = new RunPort(store, {
    onEvent,
    tools,
    models,
    yieldToEventLoop: sides.yieldToEventLoop ?? false,
  });
  // The progress line counts effects when they are issued (its tool calls, from their events).
  const effects: EffectPort = {
    storeOp: (operation) => {
      showProgress(progress?.storeOp());
      return port.storeOp(operation);
    },
    toolCall: (call) => {
      showProgress(progress?.toolEffect());
      return port.toolCall(call);
    },
    modelRound: (round) =>
      progress === undefined
        ? port.modelRound(round)
        : progress.modelRound(round, (request) => port.modelRound(request), showProgress),
    emit: (event) => port.emit(event),
  };

  // The journal (and its database client) is loaded only for a run that records.
  let recording: Recording | undefined;
  let resuming: Resuming | undefined;
  // A resume is cancelled at its first divergence from the record.
  const diverged = new AbortController();
  const location = request.resume === undefined ? recordingLocation(request, config) : undefined;
  if (request.resume !== undefined) {
    try {
      resuming = await startResuming(
        request.resume.journal,
        request.resume.runId,
        effects,
        request.store,
        () => diverged.abort(),
        request.resume.force === true,
      );
    } catch (error) {
      sink?.close();
      return { kind: "journal-error", text: messageOf(error) };
    }
  } else if (location !== undefined) {
    try {
      recording = await startRecording(
        location,
        {
          promptPath: request.file,
          promptBytes: request.bytes,
          args: request.args,
          seed: String(request.seed ?? 0n),
          host: {
            cwd: process.cwd(),
            promptFile: resolve(request.file),
            configFile: loaded.configFile === undefined ? null : resolve(loaded.configFile),
            store: request.store === undefined ? null : resolve(request.store),
            operator: broker !== undefined,
            catalog: prepared.run.catalog,
          },
          bindings: Object.fromEntries(prepared.run.catalog.models.map((m) => [m.label, m.model])),
        },
        effects,
        request.store,
      );
    } catch (error) {
      sink?.close();
      return { kind: "journal-error", text: messageOf(error) };
    }
  }
  const signal =
    resuming === undefined
      ? sides.signal
      : sides.signal === undefined
        ? diverged.signal
        : AbortSignal.any([sides.signal, diverged.signal]);
  const shouldCancel =
    resuming === undefined
      ? sides.shouldCancel
      : () => diverged.signal.aborted || (sides.shouldCancel?.() ?? false);

  recordedRunId = resuming?.runId ?? recording?.runId;
  startupMark("journal opened");
  const engine = await loadEngine();
  startupMark("engine loaded");
  let result: RunResult;
  try {
    result = await engine.run(prompt, {
      effects: resuming?.effects ?? recording?.effects ?? effects,
      args: request.args,
      catalog: prepared.run.catalog,
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      ...(sides.cancelFlag === undefined ? {} : { cancelFlag: sides.cancelFlag }),
      ...(sides.cancelFlagIndex === undefined ? {} : { cancelFlagIndex: sides.cancelFlagIndex }),
      ...(shouldCancel === undefined ? {} : { shouldCancel }),
      ...(signal === undefined ? {} : { signal }),
      ...(sides.stopFlag === undefined ? {} : { stopFlag: sides.stopFlag }),
      ...(sides.stopFlagIndex === undefined ? {} : { stopFlagIndex: sides.stopFlagIndex }),
      ...(sides.shouldStop === undefined ? {} : { shouldStop: sides.shouldStop }),
      ...(sides.stopSignal === undefined ? {} : { stopSignal: sides.stopSignal }),
    });
  } finally {
    sink?.close();
  }
  startupMark("run finished");
  const traceFailure = await tracing?.finish();
  const failure = sink?.error;
  const eventsFileError =
    failure === undefined
      ? undefined
      : `${request.eventsFile}: cannot write the events file (${failure})`;
  const warning =
    resuming !== undefined
      ? await resuming.finish(result)
      : recording === undefined
        ? undefined
        : await recording.finish(result);
  const divergence = resuming?.divergence;
  startupMark("recording finished");
  return {
    kind: "finished",
    result,
    ...(eventsFileError === undefined ? {} : { eventsFileError }),
    ...(recording === undefined
      ? {}
      : { recorded: { runId: recording.runId, ...(warning === undefined ? {} : { warning }) } }),
    ...(resuming === undefined
      ? {}
      : {
          recorded: { runId: resuming.runId, ...(warning === undefined ? {} : { warning }) },
          resumed: { ...resuming.counts(), ...(divergence === undefined ? {} : { divergence }) },
        }),
    ...(traceFailure === undefined
      ? {}
      : { otelError: `${endpoint?.shown}: cannot export the trace (${traceFailure})` }),
  };
}
