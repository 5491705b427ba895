import { type Engine, loadEngine, runNonce } from "@runvil/engine";
import { MemoryStore, RunPort, readAllFiles } from "@runvil/harness";
import { modelPortFor, type PluginEntry, toolDispatcherFor } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser, type Prompt, type PromptParser } from "@runvil/parser";
import type { RunBudget, RunEvent, RunResult, TokenUsage } from "@runvil/protocol";
import type { RunRecord } from "./run-record";
import { createScenarioHost, type ScenarioHostSetup } from "./scenario-host";
import { boundModelId, type ScenarioCase, type ScenarioModels } from "./scenario-types";

/** The run error kind of a prompt the Host refuses at prepare. */
export const REQUIREMENTS_UNMET = "RequirementsUnmet";

/** The longest a case may run before it is cancelled and failed, by default. */
export const DEFAULT_CASE_TIMEOUT_MS = 10_000;

/** Options of {@link executeCase}. */
export interface ExecuteCaseOptions {
  /** The longest the run may take before it is cancelled and failed (default 10,000 ms). */
  timeoutMs?: number;
  /** Extra plugins for the case's Host (see scenarioGuardedEntry). */
  plugins?: readonly PluginEntry[];
  /** The Host's budget (a `runvil.config.json`'s `budget`): the tighter of it and the frontmatter's applies. */
  budget?: RunBudget;
  /** The path the prompt is parsed under when the case has no `prompt_file` (its scenario file). */
  file?: string;
  /** Called with each run event as it is emitted (after it is recorded): progress, tests. */
  onEvent?: (event: RunEvent) => void;
}

/**
 * An error a tool call kept from the model (the ToolDispatcher's `onToolError`): what a tool
 * threw that is not a ToolFailure, a ToolFailure's hidden cause, an invalid parameter schema.
 */
export interface ToolError {
  /** The tool id. */
  tool: string;
  /** The error. */
  error: unknown;
}

/** What running a case gave. */
export interface CaseRun {
  /** What the run produced; absent when the case could not be run to the end. */
  record?: RunRecord;
  /**
   * Why the case fails whatever its expectations: a scripted party that ran out (`record` is
   * then present), an input the runner does not provide, a run past the timeout, a crash.
   */
  failure?: string;
  /** The errors tool calls kept from the model, in order. */
  toolErrors: ToolError[];
}

/**
 * Why the case's `models.bind` cannot hold for the prompt (a label the prompt does not declare
 * as a model role), or undefined. Every declared role is bound by the case: `models.bind[label]`,
 * else `scripted-model`.
 */
export function strayBindings(
  models: ScenarioModels,
  roles: readonly string[],
): string | undefined {
  const stray = Object.keys(models.bind).filter((label) => !roles.includes(label));
  if (stray.length === 0) return undefined;
  return stray
    .map((label) => `models.bind.${label}: the prompt declares no model role ${label}`)
    .join("; ");
}

let shared: Promise<{ engine: Engine; parse: PromptParser }> | undefined;

/** The engine and parser, loaded once per process. */
function engineAndParser(): Promise<{ engine: Engine; parse: PromptParser }> {
  shared ??= Promise.all([loadEngine(), loadLuaRuntime()]).then(([engine, lua]) => ({
    engine,
    parse: createPromptParser(lua),
  }));
  return shared;
}

/** JSON data with bigints turned into numbers (the expectations compare JSON data). */
function plainJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? Number(v) : v)),
  );
}

function recordOf(
  result: RunResult,
  events: readonly RunEvent[],
  seed: bigint,
  files: Record<string, string>,
): RunRecord {
  const record: RunRecord = {
    outcome: result.outcome,
    nonce: runNonce(seed),
    checkpoints: events.flatMap((e) => (e.type === "lua_checkpoint" ? [`Lua: ${e.message}`] : [])),
    modelRequests: [],
    events: events.map((e) => plainJson(e) as Record<string, unknown>),
    store: files,
    var: plainJson(result.var),
    usage: usageRecord(result.usage.total),
  };
  if (result.outcome === "succeeded" && result.result !== null) record.result = result.result;
  if (result.outcome === "failed") {
    const { kind, message, causes } = result.error;
    record.error =
      causes.length > 0 ? { kind, message, cause: causes.join("\n") } : { kind, message };
  }
  return record;
}

/**
 * Runs one case: parse, the case's Host (official and fixture Packs, scripted operator, fixture
 * web, scripted models, the user's plugins), prepare, then the Engine with the prepared catalog
 * and a RunPort whose ToolDispatcher runs the catalog tools. Never throws. A prompt that fails
 * to parse gives a record with `parseError`; a prompt the Host refuses gives a failed record
 * with error `{ kind: RequirementsUnmet, message: notice }` (nothing runs, `var` is not read
 * back). A scripted party that ran out fails the case through `failure` beside the record.
 */
export async function executeCase(
  scenarioCase: ScenarioCase,
  options: ExecuteCaseOptions = {},
): Promise<CaseRun> {
  const toolErrors: ToolError[] = [];
  try {
    const { engine, parse } = await engineAndParser();
    const parsed = parse(scenarioCase.prompt, {
      path: scenarioCase.promptPath ?? options.file ?? "prompt.md",
    });
    if (!parsed.ok) {
      return {
        record: {
          parseError: { kind: parsed.error.kind, message: parsed.error.message },
          checkpoints: [],
          modelRequests: [],
          events: [],
          store: { ...scenarioCase.store },
          var: {},
        },
        toolErrors,
      };
    }
    const seed = BigInt(scenarioCase.run.seed);
    const roles = parsed.prompt.frontmatter.models.map((role) => role.label);
    const stray = strayBindings(scenarioCase.models, roles);
    if (stray !== undefined) return { failure: stray, toolErrors };
    const setup = await createScenarioHost(scenarioCase, options.plugins, options.budget);
    try {
      return await runOnHost(
        engine,
        setup,
        parsed.prompt,
        scenarioCase,
        options,
        seed,
        roles,
        toolErrors,
      );
    } finally {
      // The case's Host ends with the case: the servers and connections its Packs hold close.
      await setup.host.close();
    }
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { failure: `the runner failed: ${text}`, toolErrors };
  }
}

async function runOnHost(
  engine: Engine,
  setup: ScenarioHostSetup,
  prompt: Prompt,
  scenarioCase: ScenarioCase,
  options: ExecuteCaseOptions,
  seed: bigint,
  roles: readonly string[],
  toolErrors: ToolError[],
): Promise<CaseRun> {
  const prepared = setup.host.prepare(prompt, {
    models: Object.fromEntries(
      roles.map((label) => [label, boundModelId(scenarioCase.models, label)]),
    ),
  });
  if (!prepared.ok) {
    return {
      record: {
        outcome: "failed",
        error: { kind: REQUIREMENTS_UNMET, message: prepared.notice },
        nonce: runNonce(seed),
        checkpoints: [],
        modelRequests: [],
        events: [],
        store: { ...scenarioCase.store },
        var: undefined,
      },
      toolErrors,
    };
  }
  const store = new MemoryStore({ files: scenarioCase.store });
  const events: RunEvent[] = [];
  const tools = toolDispatcherFor(prepared.run, {
    store,
    onToolError: (tool, error) => toolErrors.push({ tool, error }),
  });
  // A round the scripted provider cannot answer is kept by the provider (`ranOut`).
  const models = modelPortFor(prepared.run);
  const onEvent = options.onEvent;
  const port = new RunPort(store, {
    onEvent: (event) => {
      events.push(event);
      onEvent?.(event);
    },
    tools,
    models,
  });
  const controller = new AbortController();
  const stopController = new AbortController();
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const started = performance.now();
  const { cancelAfterMs, stopAfterMs } = scenarioCase;
  const cancelAt = cancelAfterMs === undefined ? Number.POSITIVE_INFINITY : started + cancelAfterMs;
  // stop_after_ms stops the run, which is not a cancel (docs/design/stop.md): the hook sees
  // shouldStop in a spinning block, the timer aborts stopSignal for the waits.
  const stopAt = stopAfterMs === undefined ? Number.POSITIVE_INFINITY : started + stopAfterMs;
  const giveUpAt = started + timeoutMs;
  let timedOut = false;
  const shouldCancel = (): boolean => {
    const now = performance.now();
    if (now >= giveUpAt) timedOut = true;
    return now >= cancelAt || now >= giveUpAt;
  };
  const shouldStop = (): boolean => performance.now() >= stopAt;
  const timers = [
    setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs),
  ];
  // A cancel timer only when it comes first: at the timeout, the run is failed, not cancelled.
  if (cancelAfterMs !== undefined && cancelAfterMs < timeoutMs) {
    timers.push(setTimeout(() => controller.abort(), cancelAfterMs));
  }
  if (stopAfterMs !== undefined && stopAfterMs < timeoutMs) {
    timers.push(setTimeout(() => stopController.abort(), stopAfterMs));
  }
  let result: RunResult;
  try {
    const limits: { logEvents?: number; luaMemoryBytes?: number } = {};
    if (scenarioCase.host.limits.logEvents !== undefined)
      limits.logEvents = scenarioCase.host.limits.logEvents;
    if (scenarioCase.host.limits.luaMemoryBytes !== undefined) {
      limits.luaMemoryBytes = scenarioCase.host.limits.luaMemoryBytes;
    }
    result = await engine.run(prompt, {
      effects: port,
      args: scenarioCase.args ?? "",
      execution: scenarioCase.run.name,
      seed,
      start: scenarioCase.run.startEpochMs,
      ...(scenarioCase.host.snapshot === undefined ? {} : { ui: scenarioCase.host.snapshot }),
      limits,
      catalog: prepared.run.catalog,
      shouldCancel,
      signal: controller.signal,
      ...(stopAfterMs === undefined ? {} : { shouldStop, stopSignal: stopController.signal }),
    });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    // The run is over: end every wait still open (a held operator answer, a slow tool).
    controller.abort();
  }
  if (timedOut) return { failure: `the run did not finish within ${timeoutMs} ms`, toolErrors };
  const record = recordOf(result, events, seed, await readAllFiles(store));
  record.modelRequests = [...setup.models.requests];
  const ranOut = [setup.broker.ranOut, setup.models.ranOut].filter((text) => text !== undefined);
  return ranOut.length === 0
    ? { record, toolErrors }
    : { record, failure: ranOut.join("; "), toolErrors };
}

/** The run's total usage under the `expect.usage` keys. */
function usageRecord(total: TokenUsage): Record<string, number | string | null> {
  return {
    rounds: total.rounds,
    input_tokens: total.inputTokens,
    output_tokens: total.outputTokens,
    cached_input_tokens: total.cachedInputTokens,
    reasoning_tokens: total.reasoningTokens,
    cost_usd: total.costUsd,
    unpriced_rounds: total.unpricedRounds,
  };
}
