import { hasBrand } from "./brand";
import type { JsonObject, JsonValue } from "./json";

/** One message record sent in a model round. */
export type ModelMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | {
      readonly role: "assistant";
      readonly content: string;
      readonly toolCalls?: readonly ModelToolCall[];
    }
  | { readonly role: "tool"; readonly content: string; readonly toolCallId: string };

/** A tool as a model round advertises it: wire name, description, parameter schema. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

/** One model round's request. */
export interface ModelRoundRequest {
  /** The catalog model id the role is bound to (such as `claude-sonnet-4-6`). */
  readonly model: string;
  /** The message records, oldest first. */
  readonly messages: readonly ModelMessage[];
  /** The tools advertised this round, in order; empty for none. */
  readonly tools: readonly ModelTool[];
  /** Aborted when the round must stop. */
  readonly signal: AbortSignal;
}

/** One tool call in a model's reply. `arguments` is whatever JSON the model sent. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonValue;
}

/** Token counts of one round. */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
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

/** The kinds a model round can fail with (they become the error value's kind in Lua). */
export type ModelFailureKind = "context_exhausted" | "completion" | "cancelled";

const BRAND: unique symbol = Symbol.for("runvil.ModelFailure");

/**
 * A failed model round. `kind` names the failure, `message` is model-safe and shown to the
 * prompt, `fields` are extra error-value fields (such as `reason`).
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

/**
 * A model provider: runs rounds for the catalog model ids it serves. The contract is
 * versioned: a provider names the version it implements, and a Host refuses one whose version
 * it does not know, so the contract can change without a provider silently misreading it.
 */
export interface ModelProvider {
  /** The version of this contract the provider implements: `1` (docs/design/models.md). */
  readonly specificationVersion: 1;
  /** The provider's name (for messages), such as `openai`. */
  readonly name: string;
  /** The catalog model ids it serves. */
  readonly models: readonly string[];
  /** Runs one round. Rejects with a {@link ModelFailure} for failures the prompt should see. */
  round(request: ModelRoundRequest): Promise<ModelReply>;
}
