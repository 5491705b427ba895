import type { ModelRoundEffectRequest, RunModelRole } from "@runvil/protocol";
import { type JsonValue, ModelFailure, type ModelReply } from "@runvil/sdk";

/** One scripted reply (conformance FORMAT.md `models.replies`). */
export type ScenarioReply =
  | {
      readonly text?: string;
      readonly tool_calls?: readonly {
        readonly id: string;
        readonly name: string;
        readonly arguments: JsonValue;
      }[];
      readonly finish_reason?: string;
      readonly usage?: { readonly input?: number; readonly output?: number };
    }
  | {
      readonly fail: {
        readonly kind: "context_exhausted" | "internal";
        readonly reason?: string;
        readonly message: string;
      };
    }
  | { readonly empty: { readonly finish_reason: string } }
  /** Rejects with something that is not a ModelFailure. */
  | { readonly throw: string }
  /** Never answers: the round waits until its signal aborts. */
  | { readonly hold: true };

/** A scenario's models (FORMAT.md `models`): bindings by role label and the replies in order. */
export interface ScenarioModels {
  readonly bind?: Readonly<Record<string, string>>;
  readonly replies?: readonly ScenarioReply[];
}

/** The facts a test binds a role with, unless it overrides them. */
export const SCRIPTED_ROLE_FACTS = {
  model: "scripted-model",
  contextWindow: 200_000,
  maxOutputTokens: 32_000,
  tools: true,
  settings: {},
  maxRounds: 20,
} as const;

/** A bound role with the scripted facts and any overrides. */
export function boundRole(label: string, overrides: Partial<RunModelRole> = {}): RunModelRole {
  return { ...SCRIPTED_ROLE_FACTS, label, ...overrides };
}

/** Every declared role bound as a scenario binds it: `bind[label] ?? "scripted-model"`. */
export function bindScenarioRoles(
  labels: readonly string[],
  bind: Readonly<Record<string, string>> = {},
): RunModelRole[] {
  return labels.map((label) => boundRole(label, { model: bind[label] ?? "scripted-model" }));
}

/**
 * Answers model rounds with scripted replies, one per round in order whatever the role, and
 * keeps every request. A round with no reply left fails the test's run loudly.
 */
export class ScriptedRounds {
  readonly requests: ModelRoundEffectRequest[] = [];
  private readonly replies: ScenarioReply[];

  constructor(replies: readonly ScenarioReply[] = []) {
    this.replies = [...replies];
  }

  /** How many replies are left. */
  get remaining(): number {
    return this.replies.length;
  }

  async round(request: ModelRoundEffectRequest): Promise<ModelReply> {
    this.requests.push(request);
    const reply = this.replies.shift();
    if (reply === undefined) {
      throw new Error(`the test scripts no model reply for round ${this.requests.length}`);
    }
    if ("hold" in reply) {
      return new Promise<ModelReply>((_, reject) => {
        const abort = (): void => reject(new Error("aborted"));
        request.signal.addEventListener("abort", abort, { once: true });
        request.stopSignal.addEventListener("abort", abort, { once: true });
      });
    }
    if ("throw" in reply) throw new Error(reply.throw);
    if ("fail" in reply) {
      const { kind, reason, message } = reply.fail;
      throw new ModelFailure(kind, message, reason === undefined ? {} : { reason });
    }
    if ("empty" in reply) {
      return {
        text: "",
        toolCalls: [],
        finishReason: reply.empty.finish_reason,
        usage: { inputTokens: 0, outputTokens: 0 },
      };
    }
    const calls = reply.tool_calls ?? [];
    return {
      text: reply.text ?? "",
      toolCalls: calls.map((call) => ({ ...call })),
      finishReason: reply.finish_reason ?? (calls.length > 0 ? "tool_calls" : "stop"),
      usage: { inputTokens: reply.usage?.input ?? 0, outputTokens: reply.usage?.output ?? 0 },
    };
  }
}
