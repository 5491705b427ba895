import type { JsonObject, JsonValue } from "./json";
import type { Services } from "./services";
import type { RunStore } from "./store";

/** How a tool's output reaches a script: as text (`plain`), or parsed as one JSON value. */
export type ToolOutputKind = "plain" | "structured";

/**
 * The trust level of a tool's output. `untrusted` output (anything an outsider can influence,
 * such as a fetched page) reaches the model and the script inside the run's untrusted envelope.
 */
export type ToolTrust = "trusted" | "untrusted";

/** Who made a tool call and from where. */
export interface ToolCallOrigin {
  /** The run's execution name (`sys.execution`). */
  readonly execution: string;
  /** The section that made the call (`sys.section_name`). */
  readonly section: string;
  /** `script` for a Lua tools.call, `model` for a call a model round asked for. */
  readonly caller: "script" | "model";
  /** The chain id. */
  readonly chain: string;
  /** The section entry id (`sys.id`). */
  readonly entry: string;
}

/** What a tool's `run` is lent for one call. */
export interface ToolContext {
  /** The run's services (input broker, search provider, ...). */
  readonly services: Services;
  /** The run's own files: the same files the prompt's `store` global sees. */
  readonly store: RunStore;
  /** Aborted when the call must stop (the run was cancelled or ended). */
  readonly signal: AbortSignal;
  /** Who made the call. */
  readonly origin: ToolCallOrigin;
  /** The tool's id, such as `web/fetch`. */
  readonly toolId: string;
  /** The name the call used: the wire name (`web_fetch`), or the id for a tool left out of the offering. */
  readonly name: string;
  /**
   * The call's effect id (`{entry}/{n}`, such as `0.1/3`): the same in every execution of the
   * run (a replay, a `runvil resume`, a durable run's recovery on another worker) and different
   * for every other effect of the run. Send it, with {@link ToolContext.runId}, as the
   * idempotency key of a side effect: a call in flight when a process died is made again
   * (at least once), and the key lets the remote service apply it once.
   */
  readonly effectId: string;
  /**
   * The id of the recorded run the call belongs to (the journal's run id, a durable run's id),
   * the same across its resume and recovery; undefined for a run nobody records (nothing can
   * repeat its calls). `${runId}/${effectId}` is unique across runs.
   */
  readonly runId: string | undefined;
}

/** What a tool answers: text, or for a structured tool a JSON value (or its JSON text). */
export type ToolOutput = string | JsonValue;

/** A tool, as a Pack contributes it. */
export interface ToolDefinition<Args extends JsonObject = JsonObject> {
  /** The tool id, `{pack id}/{name}` such as `web/fetch`; it must start with its Pack's id. */
  readonly id: string;
  /** One sentence the model reads when the tool is offered. */
  readonly description: string;
  /**
   * The JSON Schema of the arguments: an object schema such as
   * `{ type: "object", properties: { url: { type: "string" } }, required: ["url"] }`.
   * Arguments are checked against it before `run` is called. A tool whose schema is not a JSON
   * object is kept out of the run's offering.
   */
  readonly parameters: JsonValue;
  /** The output kind (default `plain`). */
  readonly output?: ToolOutputKind;
  /** The trust level of every result of this tool. */
  readonly trust: ToolTrust;
  /** Whether a pending call stays open through a stop of the run (default false). */
  readonly survivesStop?: boolean;
  /**
   * Performs one call with arguments that passed the schema. Throw a {@link ToolFailure} to
   * fail with a model-safe message.
   */
  run(args: Args, ctx: ToolContext): ToolOutput | Promise<ToolOutput>;
}

/** Declares a tool (an identity function that checks the shape at compile time). */
export function defineTool<Args extends JsonObject = JsonObject>(
  tool: ToolDefinition<Args>,
): ToolDefinition<Args> {
  return tool;
}
