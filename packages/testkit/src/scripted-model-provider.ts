import {
  MODEL_FAILURE_KINDS,
  MODEL_SPECIFICATION_VERSION,
  ModelFailure,
  type ModelFailureKind,
  type ModelInfo,
  type ModelProvider,
  type ModelRoundRequest,
  type ModelUsage,
  type ModelReply as ProviderReply,
} from "@runvil/sdk";
import type { ObservedModelRequest } from "./run-record";
import {
  DEFAULT_MODEL_ID,
  type ScenarioModels,
  type ModelReply as ScriptedReply,
  type ScriptedUsage,
} from "./scenario-types";

/** The model failure kinds a scripted `fail` reply can name (the sdk's ModelFailureKind). */
export const SCRIPTED_FAILURE_KINDS: readonly ModelFailureKind[] = MODEL_FAILURE_KINDS;

/**
 * The facts of every model the scripted provider serves, unless the case's `models.catalog`
 * gives others: a 200,000-token window, 32,000 output tokens, tools.
 */
export const SCRIPTED_MODEL_FACTS = {
  contextWindow: 200_000,
  maxOutputTokens: 32_000,
  tools: true,
} as const;

/** The name of the scripted model provider (for messages). */
export const SCRIPTED_PROVIDER_NAME = "scripted";

/**
 * The model provider of a scenario case: answers every round with the case's next scripted
 * reply (`models.replies`, consumed in order whatever the role) and records every request for
 * the `model_requests` expectation. It serves `scripted-model`, every catalog id the case
 * binds a role to (`models.bind`) and every id of `models.catalog`, each with the facts
 * `models.catalog` gives over {@link SCRIPTED_MODEL_FACTS}.
 *
 * A round with no reply left rejects, and {@link ranOut} keeps
 * `the scenario scripts no model reply for round {n}` so the case fails with it even when the
 * run's outcome matches. It never hangs.
 */
export class ScriptedModelProvider implements ModelProvider {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly name = SCRIPTED_PROVIDER_NAME;
  /** The catalog models it serves: `scripted-model`, the bound ids, the catalog's ids, without repeats. */
  readonly models: readonly ModelInfo[];
  readonly #replies: readonly ScriptedReply[];
  readonly #requests: ObservedModelRequest[] = [];
  #rounds = 0;
  #ranOut: string | undefined;

  /** A provider scripted by a case's `models`. */
  constructor(models: ScenarioModels) {
    const catalog = models.catalog ?? {};
    const ids = [
      ...new Set([DEFAULT_MODEL_ID, ...Object.values(models.bind), ...Object.keys(catalog)]),
    ];
    this.models = ids.map((id) => {
      const facts = Object.hasOwn(catalog, id) ? catalog[id] : undefined;
      return {
        id,
        contextWindow: facts?.contextWindow ?? SCRIPTED_MODEL_FACTS.contextWindow,
        maxOutputTokens: facts?.maxOutputTokens ?? SCRIPTED_MODEL_FACTS.maxOutputTokens,
        tools: facts?.tools ?? SCRIPTED_MODEL_FACTS.tools,
        ...(facts?.prices === undefined ? {} : { prices: { ...facts.prices } }),
      };
    });
    this.#replies = models.replies;
  }

  /** Every request made so far, in order (wire names, message count, tool definitions). */
  get requests(): readonly ObservedModelRequest[] {
    return this.#requests;
  }

  /** How many rounds were asked for so far. */
  get roundCount(): number {
    return this.#rounds;
  }

  /** How many scripted replies are still unused. */
  get remaining(): number {
    return Math.max(0, this.#replies.length - this.#rounds);
  }

  /** The first problem that must fail the case (a round without a reply), or undefined. */
  get ranOut(): string | undefined {
    return this.#ranOut;
  }

  /**
   * Answers one round with the next scripted reply. A round whose signal is already aborted
   * rejects with the signal's reason and uses no reply.
   */
  async round(request: ModelRoundRequest): Promise<ProviderReply> {
    request.signal.throwIfAborted();
    this.#rounds += 1;
    const round = this.#rounds;
    this.#requests.push(observe(request));
    const reply = this.#replies[round - 1];
    if (reply === undefined) {
      const message = `the scenario scripts no model reply for round ${round}`;
      this.#ranOut ??= message;
      throw new Error(message);
    }
    return answer(reply);
  }
}

function observe(request: ModelRoundRequest): ObservedModelRequest {
  return {
    tools: request.tools.map((tool) => tool.name),
    messages: request.messages.length,
    toolDefinitions: request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    })),
  };
}

/** A scripted reply's usage as the sdk counts it (no `usage`: zero tokens). */
function usageOf(usage: ScriptedUsage | undefined): ModelUsage {
  return {
    inputTokens: usage?.input ?? 0,
    outputTokens: usage?.output ?? 0,
    ...(usage?.cachedInput === undefined ? {} : { cachedInputTokens: usage.cachedInput }),
    ...(usage?.reasoning === undefined ? {} : { reasoningTokens: usage.reasoning }),
  };
}

function answer(reply: ScriptedReply): ProviderReply {
  switch (reply.kind) {
    case "message":
      return {
        text: reply.text,
        toolCalls: reply.toolCalls.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: call.arguments,
        })),
        finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop",
        usage: usageOf(reply.usage),
      };
    case "empty":
      return {
        text: "",
        toolCalls: [],
        finishReason: reply.finishReason ?? "",
        usage: usageOf(reply.usage),
      };
    case "fail": {
      const { kind, reason, message } = reply.failure;
      throw new ModelFailure(kind, message, reason === undefined ? {} : { reason });
    }
  }
}
