import { toWireName } from "@runvil/names";
import type { ToolCallOutput, ToolCallRequest } from "@runvil/protocol";
import {
  isJsonObject,
  type RunStore,
  type Services,
  type ToolContext,
  type ToolDefinition,
  ToolFailure,
} from "@runvil/sdk";
import type { ValidateFunction } from "ajv";
import { abortError, type JoinedSignal, joinSignals, raceAbort } from "./abortable";
import { argumentFailureMessage } from "./argument-message";
import {
  loadParameterSchemaCompiler,
  type ParameterSchemaCompiler,
  parameterSchemaCompiler,
} from "./schema-compiler";
import { toolOutputText } from "./tool-output-text";

/** What a ToolDispatcher is built with: the run's tools, services and store. */
export interface ToolDispatcherOptions {
  /** Every catalog tool of the run by tool id (the Host's `PreparedRun.tools`). */
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** The run's services, lent to every call. */
  readonly services: Services;
  /** The run's store, lent to every call. */
  readonly store: RunStore;
  /**
   * Called with every error whose text the model must not see: what a tool threw that is not
   * a ToolFailure, a ToolFailure's hidden `cause` (the failure itself is passed), an output
   * that is not text or JSON data, and a parameter schema ajv cannot compile. For logs; a
   * throw from it is ignored.
   */
  readonly onToolError?: (toolId: string, error: unknown) => void;
  /**
   * The recorded run's id, lent to every call as `ToolContext.runId`: a string, or a function
   * read at each call (a CLI learns the id of the run it records after it built the
   * dispatcher). Absent or undefined: the run is not recorded.
   */
  readonly runId?: string | (() => string | undefined);
}

/** A tool's compiled schema; `validate` undefined: the schema is not a JSON object, no check. */
type CompiledSchema =
  | { ok: true; validate: ValidateFunction | undefined }
  | { ok: false; error: unknown };

/**
 * Compiled schemas by tool definition, shared by every dispatcher of the process: a tool's
 * schema is read and compiled once, at its first call.
 */
const compiledSchemas = new WeakMap<ToolDefinition, CompiledSchema>();

/**
 * The tool's compiled schema, compiled at the first call that needs it; undefined when the
 * schema needs ajv and `compile` is not loaded yet (no Promise tick on the usual path, so a call
 * reaches its tool in the same turn).
 */
function compiledSchemaOf(
  definition: ToolDefinition,
  compile: ParameterSchemaCompiler | undefined,
): CompiledSchema | undefined {
  let compiled = compiledSchemas.get(definition);
  if (compiled !== undefined) return compiled;
  const parameters = definition.parameters;
  if (!isJsonObject(parameters)) {
    compiled = { ok: true, validate: undefined };
  } else {
    if (compile === undefined) return undefined;
    try {
      compiled = { ok: true, validate: compile(parameters) };
    } catch (error) {
      compiled = { ok: false, error };
    }
  }
  compiledSchemas.set(definition, compiled);
  return compiled;
}

/**
 * The signal that ends a call: the request's `signal`, joined with its `stopSignal` unless the
 * tool survives a stop (an unknown tool: joined, it fails anyway), and the release of the join.
 */
function callSignal(
  request: ToolCallRequest,
  definition: ToolDefinition | undefined,
): JoinedSignal {
  const { signal, stopSignal } = request;
  if (stopSignal === undefined || definition?.survivesStop === true) {
    return { signal, release: () => {} };
  }
  return joinSignals(signal, stopSignal);
}

/**
 * Runs catalog tool calls for one run: the Harness side of `EffectPort.toolCall`. Each call
 * checks the arguments against the tool's schema (ajv) when the schema is a JSON object, runs
 * the tool with a ToolContext (its effect id and the recorded run's id included), and
 * answers with its text and trust level, or rejects with a ToolFailure whose message is
 * model-safe and starts with the tool's wire name:
 *
 * - arguments that fail the schema: `web_fetch: missing url argument` and the other forms of
 *   {@link argumentFailureMessage}; the tool does not run;
 * - an object schema ajv cannot compile: `{wire}: the tool's parameter schema is invalid`;
 * - the tool throws a ToolFailure: a fresh ToolFailure with the same message (no cause);
 * - the tool throws anything else, or returns something that is not text or JSON data:
 *   `{wire}: the tool failed`.
 *
 * When the request's signal aborts, the call rejects at once with the signal's reason (an
 * AbortError when the reason is not an Error); the tool sees the same signal. A request for a
 * tool id the map lacks rejects with a plain Error (a Host/Engine mismatch, not a tool failure).
 *
 * A stop of the run (the request's `stopSignal`, docs/design/stop.md) is decided per tool: a
 * tool that survives a stop (`survivesStop: true`, like the ask tool) is left running and sees
 * only `signal`, so the operator's open question stays open; any other call is treated as if
 * `signal` had aborted (it rejects at once with the stop signal's reason, and the tool sees a
 * signal aborted by either).
 *
 * A schema that is not a JSON object (such as the bare string `"scalar"`) checks nothing: such
 * a tool is left out of the run's offering, and a script call to it by id "runs normally"
 * (tools chapter, "How tool calls are recorded"), so its arguments go to the tool unchecked.
 */
export class ToolDispatcher {
  readonly #tools: ReadonlyMap<string, ToolDefinition>;
  readonly #services: Services;
  readonly #store: RunStore;
  readonly #onToolError: ((toolId: string, error: unknown) => void) | undefined;
  readonly #runId: () => string | undefined;

  /** A dispatcher over the run's tools, services and store. */
  constructor(options: ToolDispatcherOptions) {
    this.#tools = options.tools;
    this.#services = options.services;
    this.#store = options.store;
    this.#onToolError = options.onToolError;
    const runId = options.runId;
    this.#runId = typeof runId === "function" ? runId : () => runId;
  }

  /** Whether the dispatcher can run the tool `toolId`. */
  has(toolId: string): boolean {
    return this.#tools.has(toolId);
  }

  /** Performs one catalog tool call (see the class comment for every way it can fail). */
  call(request: ToolCallRequest): Promise<ToolCallOutput> {
    const definition = this.#tools.get(request.tool);
    const { signal, release } = callSignal(request, definition);
    if (signal.aborted || definition === undefined) {
      release();
      if (signal.aborted) return Promise.reject(abortError(signal));
      return Promise.reject(new Error(`no tool ${request.tool} in this run's tool map`));
    }
    const work = this.#perform(
      definition,
      signal === request.signal ? request : { ...request, signal },
    );
    work.then(release, release);
    return raceAbort(work, signal, () => {});
  }

  async #perform(definition: ToolDefinition, request: ToolCallRequest): Promise<ToolCallOutput> {
    const toolId = request.tool;
    const wire = toWireName(toolId);
    // ajv is loaded at the first schema check (performance brief, docs/design/performance.md).
    const compiled =
      compiledSchemaOf(definition, parameterSchemaCompiler()) ??
      (compiledSchemaOf(definition, await loadParameterSchemaCompiler()) as CompiledSchema);
    this.#checkArguments(compiled, request);
    let output: unknown;
    try {
      output = await definition.run(structuredClone(request.arguments), this.#context(request));
    } catch (error) {
      if (request.signal.aborted) throw abortError(request.signal);
      if (ToolFailure.isInstance(error)) {
        if (error.cause !== undefined) this.#report(toolId, error);
        throw new ToolFailure(error.message);
      }
      this.#report(toolId, error);
      throw new ToolFailure(`${wire}: the tool failed`);
    }
    const text = toolOutputText(output);
    if (!text.ok) {
      this.#report(toolId, new TypeError(`tool ${toolId} failed: ${text.problem}`));
      throw new ToolFailure(`${wire}: the tool failed`);
    }
    return { text: text.text, trusted: definition.trust === "trusted" };
  }

  /**
   * Checks the call's arguments against the tool's compiled schema (none when the schema is not
   * a JSON object); throws the ToolFailure of a failed check or of a schema ajv cannot compile.
   */
  #checkArguments(compiled: CompiledSchema, request: ToolCallRequest): void {
    const wire = toWireName(request.tool);
    if (!compiled.ok) {
      this.#report(request.tool, compiled.error);
      throw new ToolFailure(`${wire}: the tool's parameter schema is invalid`);
    }
    if (compiled.validate === undefined) return;
    if (!compiled.validate(request.arguments)) {
      throw new ToolFailure(
        argumentFailureMessage(wire, request.arguments, compiled.validate.errors ?? []),
      );
    }
  }

  #context(request: ToolCallRequest): ToolContext {
    const { origin } = request;
    return {
      services: this.#services,
      store: this.#store,
      signal: request.signal,
      origin: {
        execution: origin.execution,
        section: origin.section,
        caller: request.caller,
        chain: origin.chain,
        entry: origin.entry,
      },
      toolId: request.tool,
      name: request.name,
      effectId: request.effect,
      runId: this.#runId(),
    };
  }

  #report(toolId: string, error: unknown): void {
    try {
      this.#onToolError?.(toolId, error);
    } catch {
      // A failing log callback must not change the call's outcome.
    }
  }
}
