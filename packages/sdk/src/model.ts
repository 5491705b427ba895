import { hasBrand } from "./brand";
import type { JsonObject, JsonValue } from "./json";

/**
 * The model provider contract (docs/design/models.md §2): a Model provider registers catalog
 * models ({@link ModelInfo}) and runs rounds ({@link ModelProvider.round}). The contract is
 * versioned: a provider names the version it implements, and a Host refuses one whose version
 * it does not speak, so the contract can change without a provider silently misreading it.
 */
export const MODEL_SPECIFICATION_VERSION = 1;

/** Prices of a catalog model, in US dollars per million tokens. */
export interface ModelPrices {
  /** Per million input tokens. */
  readonly inputPerMillion: number;
  /** Per million output tokens. */
  readonly outputPerMillion: number;
  /** Per million input tokens read from the provider's prompt cache, when it prices them apart. */
  readonly cachedInputPerMillion?: number;
}

/** One catalog model, as its provider registers it. */
export interface ModelInfo {
  /**
   * The catalog id, `[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}`, such as `claude-sonnet-4-6`. One id
   * names one model in a Host: two providers cannot both serve it.
   */
  readonly id: string;
  /** The context window in tokens: a whole number of at least 1. */
  readonly contextWindow: number;
  /** The most tokens one reply can hold: a whole number from 1 to `contextWindow`. */
  readonly maxOutputTokens: number;
  /** Whether the model takes tool definitions (a loop that offers tools needs one that does). */
  readonly tools: boolean;
  /** What the model costs, when known (each price ≥ 0). */
  readonly prices?: ModelPrices;
}

/** A record of the conversation sent in a round: system text where it stands in the list. */
export interface ModelSystemMessage {
  readonly role: "system";
  readonly content: string;
}

/** A user turn. */
export interface ModelUserMessage {
  readonly role: "user";
  readonly content: string;
}

/** An assistant turn: its text (possibly empty when it only called tools) and its tool calls. */
export interface ModelAssistantMessage {
  readonly role: "assistant";
  readonly content: string;
  /** The calls the assistant made, in its order; absent or empty for a text reply. */
  readonly toolCalls?: readonly ModelToolCall[];
}

/** The result of one tool call, answering the assistant record before it. */
export interface ModelToolMessage {
  readonly role: "tool";
  /** Exactly what the model receives (the untrusted envelope included). */
  readonly content: string;
  /** The id of the call it answers. */
  readonly toolCallId: string;
  /** The name the call used (the AI SDK's tool-result part needs it). */
  readonly toolName: string;
}

/** One message record sent in a model round. */
export type ModelMessage =
  | ModelSystemMessage
  | ModelUserMessage
  | ModelAssistantMessage
  | ModelToolMessage;

/** A tool as a model round advertises it: wire name, description, parameter schema. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

/** A role's generation settings, each left to the provider when absent. */
export interface ModelSettings {
  /** Sampling temperature, 0 to 2. */
  readonly temperature?: number;
  /** The cap on this reply's tokens. */
  readonly maxOutputTokens?: number;
  /** Stop sequences (1 to 16). */
  readonly stop?: readonly string[];
}

/** One model round's request, as a provider receives it. */
export interface ModelRoundRequest {
  /** The catalog model id the role is bound to (such as `claude-sonnet-4-6`). */
  readonly model: string;
  /** The role's system text, sent ahead of the messages, when it has one. */
  readonly system?: string;
  /** The message records, oldest first. */
  readonly messages: readonly ModelMessage[];
  /** The tools advertised this round, in order; empty for none. */
  readonly tools: readonly ModelTool[];
  /** The role's generation settings. */
  readonly settings: ModelSettings;
  /** Aborted when the round must stop (the run was cancelled or stopped). */
  readonly signal: AbortSignal;
  /**
   * Reports how the round is going, when the Host listens (absent: nobody does): a streaming
   * provider's output so far, a retry it is about to make. Optional in specification version 1:
   * a provider that never calls it is a correct provider, and a Host ignores a progress `type`
   * it does not know, so new types can be added without a new version. A call after the round
   * settled is ignored; a throw from it never reaches the provider.
   */
  readonly onProgress?: (progress: ModelRoundProgress) => void;
}

/** The output a streaming provider has received so far in this round (one attempt). */
export interface ModelOutputProgress {
  readonly type: "output";
  /** Output tokens so far: the provider's count, or an estimate (characters ÷ 4) while streaming. */
  readonly outputTokens: number;
  /** 1 for the first attempt, 2 after the first retry, … */
  readonly attempt: number;
}

/** The provider is about to retry the round (a rate limit, an overload, a transient failure). */
export interface ModelRetryProgress {
  readonly type: "retry";
  /** The attempt that failed: 1 for the first. */
  readonly attempt: number;
  /** How long the provider waits before the next attempt, in milliseconds. */
  readonly delayMs: number;
  /** Why, model-safe and without secrets: `rate limited (429)`, `server error (503)`, … */
  readonly reason: string;
}

/** What {@link ModelRoundRequest.onProgress} receives. */
export type ModelRoundProgress = ModelOutputProgress | ModelRetryProgress;

/** Every {@link ModelRoundProgress} type a Host of this SDK knows. */
export const MODEL_PROGRESS_TYPES: readonly ModelRoundProgress["type"][] = ["output", "retry"];

/** One tool call in a model's reply. `arguments` is whatever JSON the model sent. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonValue;
}

/** Token counts of one round: whole numbers ≥ 0. */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the provider's prompt cache (counted in `inputTokens` too). */
  readonly cachedInputTokens?: number;
  /** Output tokens spent on reasoning (counted in `outputTokens` too). */
  readonly reasoningTokens?: number;
}

/** A model's reply to one round. */
export interface ModelReply {
  /** The reply text (empty when the model only called tools or said nothing). */
  readonly text: string;
  /** The tool calls, in the model's order; empty for none. */
  readonly toolCalls: readonly ModelToolCall[];
  /** Why the model stopped: `stop`, `tool_calls`, `length`, or a provider's own reason. */
  readonly finishReason: string;
  readonly usage: ModelUsage;
}

/**
 * The kinds a provider may fail a round with (they become the error value's kind in Lua):
 * `context_exhausted` (the request does not fit the model; Lua sees `reason = "provider"`) and
 * `internal` (any other failure, with a model-safe message such as `model is down`).
 */
export type ModelFailureKind = "context_exhausted" | "internal";

/** Every {@link ModelFailureKind}, in the order the docs list them. */
export const MODEL_FAILURE_KINDS: readonly ModelFailureKind[] = ["context_exhausted", "internal"];

const BRAND: unique symbol = Symbol.for("runvil.ModelFailure");

/**
 * A failed model round. `kind` names the failure, `message` is model-safe and shown to the
 * prompt, `fields` are extra error-value fields. Throw it from {@link ModelProvider.round};
 * pass the hidden cause as `cause` (it is logged, never shown). A provider that throws anything
 * else fails the round too, but the prompt sees only `{provider}: the model round failed`.
 */
export class ModelFailure extends Error {
  /** The brand that tells a ModelFailure apart across package copies (see {@link isInstance}). */
  declare readonly [BRAND]: true;

  static {
    // On the prototype, not enumerable: no own property for spreads, JSON or deep equality.
    Object.defineProperty(ModelFailure.prototype, BRAND, { value: true });
  }

  readonly kind: ModelFailureKind;
  readonly fields: Readonly<Record<string, string | number | boolean>>;

  constructor(
    kind: ModelFailureKind,
    message: string,
    fields: Readonly<Record<string, string | number | boolean>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ModelFailure";
    this.kind = kind;
    this.fields = fields;
  }

  /** Whether `value` is a ModelFailure, from this copy of the SDK or another one. */
  static isInstance(value: unknown): value is ModelFailure {
    return hasBrand(value, BRAND);
  }
}

/** A model provider: registers catalog models and runs rounds on them. */
export interface ModelProvider {
  /** The version of this contract the provider implements: {@link MODEL_SPECIFICATION_VERSION}. */
  readonly specificationVersion: typeof MODEL_SPECIFICATION_VERSION;
  /** The provider's name (for messages), such as `openai`. */
  readonly name: string;
  /** The catalog models it serves, in the order it lists them. */
  readonly models: readonly ModelInfo[];
  /**
   * Runs one round. Rejects with a {@link ModelFailure} for failures the prompt should see; it
   * retries what it can retry (rate limits, transient errors) itself.
   */
  round(request: ModelRoundRequest): Promise<ModelReply>;
}
