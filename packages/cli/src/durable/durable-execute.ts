import type { DurableExecution, ExecuteRun } from "@runvil/durable";
import { durableInputBroker } from "@runvil/durable";
import { loadEngine } from "@runvil/engine";
import { RunPort } from "@runvil/harness";
import { modelPortFor, toolDispatcherFor } from "@runvil/host";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import type { EffectPort, RunResult } from "@runvil/protocol";
import { INPUT_BROKER } from "@runvil/sdk";
import type { PgStoreDatabase } from "@runvil/store-postgres";
import { formatHostError, formatParseError } from "../format-parse-error";
import type { CliHostCache } from "../host/cli-host";
import type { DrainGate } from "./drain-gate";
import { readSubmitOptions } from "./durable-options";

/** What the executions of one worker share. */
export interface DurableExecuteOptions {
  /** The run stores (in the durable runs database). */
  readonly stores: PgStoreDatabase;
  /** The worker's drain gate: effects pass through it so SIGTERM can stop at a step boundary. */
  readonly gate: DrainGate;
  /** Hosts, one per configuration file, for the worker's life. */
  readonly hosts: CliHostCache;
}

/** A run that cannot start (its prompt does not parse, its Host or prepare refuses). */
export class DurableRunRefused extends Error {
  override readonly name = "DurableRunRefused";
}

/**
 * The worker's ExecuteRun: one execution of a durable run (docs/design/durable-workers.md). It
 * parses the submitted prompt text, sets up the Host of its configuration, prepares the run with
 * the durable input broker, and runs the Engine with the run's seed and start instant on a port
 * whose store is the run's PostgreSQL store (each store operation applied once per effect id),
 * wrapped by the durable port (each effect a DBOS step) and the drain gate.
 */
export function durableExecute(options: DurableExecuteOptions): ExecuteRun {
  return async (execution: DurableExecution): Promise<RunResult> => {
    const input = execution.input;
    const submitted = readSubmitOptions(input.runId, input.options);
    const bytes = new TextEncoder().encode(input.prompt.text);
    const parsed = createPromptParser(await loadLuaRuntime())(bytes, { path: input.prompt.path });
    if (!parsed.ok) {
      throw new DurableRunRefused(formatParseError(input.prompt.path, parsed.error));
    }
    const loaded = await options.hosts.get({
      promptFile: input.prompt.path,
      ...(submitted.config === undefined ? {} : { configFile: submitted.config }),
    });
    if (!loaded.ok) {
      throw new DurableRunRefused(formatHostError(input.prompt.path, loaded.message));
    }
    const prepared = loaded.host.prepare(parsed.prompt, {
      services: { [INPUT_BROKER]: durableInputBroker },
      ...(submitted.models === undefined ? {} : { models: submitted.models }),
    });
    if (!prepared.ok) throw new DurableRunRefused(prepared.notice);

    const store = await options.stores.store(input.runId);
    const port = new RunPort(store, {
      tools: toolDispatcherFor(prepared.run, { store, runId: input.runId }),
      models: modelPortFor(prepared.run),
    });
    const inner: EffectPort = {
      // Once per effect id: a store step tried again after a crash does not apply twice.
      storeOp: (request) => store.applyOnce(request.effect, request.operation),
      toolCall: (request) => port.toolCall(request),
      modelRound: (request) => port.modelRound(request),
      emit: (event) => port.emit(event),
    };
    const engine = await loadEngine();
    return engine.run(parsed.prompt, {
      effects: options.gate.wrap(execution.wrap(inner)),
      args: input.args,
      seed: input.seed,
      start: input.startedAt,
      catalog: prepared.run.catalog,
      signal: execution.signal,
    });
  };
}
