import { type Engine, loadEngine, type RunEvent, type RunResult, runNonce } from "@runvil/engine";
import { MemoryStore, RunPort, readAllFiles } from "@runvil/harness";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser, type PromptParser } from "@runvil/parser";
import { checkExpectations } from "./expectations";
import { type CaseResult, checkedCaseResult, skippedCaseResult } from "./report";
import type { RunRecord } from "./run-record";
import type { ScenarioCase } from "./scenario-types";

/** Options of {@link runScenarioCase}. */
export interface RunCaseOptions {
  /** The longest a case may run before it is cancelled and failed (default 10,000 ms). */
  timeoutMs?: number;
}

/** What a case's run needs that the runner cannot provide yet, or undefined when it can run. */
export function unsupportedInputs(scenarioCase: ScenarioCase): string | undefined {
  const missing: string[] = [];
  if (scenarioCase.models.replies.length > 0) missing.push("scripted model replies");
  if (scenarioCase.operator.length > 0) missing.push("operator answers");
  const web = scenarioCase.web;
  if (Object.keys(web.pages).length > 0 || Object.keys(web.search).length > 0) {
    missing.push("web fixtures");
  }
  if (scenarioCase.host.fixtureTools.length > 0) missing.push("fixture tools");
  if (Object.keys(scenarioCase.host.fixturePreludes).length > 0) missing.push("fixture preludes");
  if (scenarioCase.stopAfterMs !== undefined) missing.push("stop_after_ms");
  return missing.length === 0 ? undefined : missing.join(", ");
}

let shared: Promise<{ engine: Engine; parse: PromptParser }> | undefined;

/** The engine and parser, loaded once per process. */
function tools(): Promise<{ engine: Engine; parse: PromptParser }> {
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
 * Runs one scenario case through the parser and the Engine, with its store, args, run facts,
 * snapshot, limits and cancel timer, and checks its expectations. Never throws: a case the
 * runner cannot run (it needs scripted models, the operator, the web or fixture Packs, which
 * the runner does not provide yet) fails saying what it needs; a case that runs past the
 * timeout is cancelled and fails saying so.
 */
export async function runScenarioCase(
  file: string,
  scenarioCase: ScenarioCase,
  options: RunCaseOptions = {},
): Promise<CaseResult> {
  if (scenarioCase.skip !== undefined) return skippedCaseResult(file, scenarioCase);
  try {
    const { engine, parse } = await tools();
    const parsed = parse(scenarioCase.prompt, { path: scenarioCase.promptPath ?? file });
    if (!parsed.ok) {
      const record: RunRecord = {
        parseError: { kind: parsed.error.kind, message: parsed.error.message },
        checkpoints: [],
        modelRequests: [],
        events: [],
        store: { ...scenarioCase.store },
        var: {},
      };
      return checkedCaseResult(file, scenarioCase, checkExpectations(scenarioCase.expect, record));
    }
    const unsupported = unsupportedInputs(scenarioCase);
    if (unsupported !== undefined) {
      return checkedCaseResult(
        file,
        scenarioCase,
        [],
        `the runner does not provide ${unsupported} yet`,
      );
    }
    const store = new MemoryStore({ files: scenarioCase.store });
    const events: RunEvent[] = [];
    const port = new RunPort(store, { onEvent: (event) => events.push(event) });
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? 10_000;
    const started = performance.now();
    const cancelAt =
      scenarioCase.cancelAfterMs === undefined
        ? Number.POSITIVE_INFINITY
        : started + scenarioCase.cancelAfterMs;
    const giveUpAt = started + timeoutMs;
    let timedOut = false;
    const shouldCancel = (): boolean => {
      const now = performance.now();
      if (now >= giveUpAt) timedOut = true;
      return now >= cancelAt || now >= giveUpAt;
    };
    const timers = [
      setTimeout(
        () => controller.abort(),
        Math.min(timeoutMs, scenarioCase.cancelAfterMs ?? timeoutMs),
      ),
      setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs),
    ];
    const seed = BigInt(scenarioCase.run.seed);
    let result: RunResult;
    try {
      const limits: { logEvents?: number; luaMemoryBytes?: number } = {};
      if (scenarioCase.host.limits.logEvents !== undefined)
        limits.logEvents = scenarioCase.host.limits.logEvents;
      if (scenarioCase.host.limits.luaMemoryBytes !== undefined) {
        limits.luaMemoryBytes = scenarioCase.host.limits.luaMemoryBytes;
      }
      result = await engine.run(parsed.prompt, {
        effects: port,
        args: scenarioCase.args ?? "",
        execution: scenarioCase.run.name,
        seed,
        start: Date.parse(scenarioCase.run.start),
        ...(scenarioCase.host.snapshot === undefined ? {} : { ui: scenarioCase.host.snapshot }),
        limits,
        shouldCancel,
        signal: controller.signal,
      });
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
    if (timedOut) {
      return checkedCaseResult(
        file,
        scenarioCase,
        [],
        `the run did not finish within ${timeoutMs} ms`,
      );
    }
    const record = recordOf(result, events, seed, await readAllFiles(store));
    return checkedCaseResult(file, scenarioCase, checkExpectations(scenarioCase.expect, record));
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return checkedCaseResult(file, scenarioCase, [], `the runner failed: ${text}`);
  }
}
