import type { ModelRoundVia, RunModelRole } from "@runvil/protocol";
import type { ModelReply, ModelTool } from "@runvil/sdk";
import { type BudgetRound, checkAfterRound, checkBeforeRound } from "../budget/budget-check";
import { roundCost } from "../cost/round-cost";
import { EngineError } from "../lua";
import type { MessageRecord } from "../messages/message-record";
import { utf8Length } from "../messages/utf8-length";
import type { Entry } from "../walk/entry";
import { estimateRequest } from "./estimate";
import {
  genericRoundFailureMessage,
  MAX_REPLY_BYTES,
  MAX_REPLY_TOOL_CALLS,
  NO_MODEL_PORT_MESSAGE,
  precheckMessage,
  replyTooLargeMessage,
  replyTooManyCallsMessage,
  roundCauseText,
  unboundRoleMessage,
} from "./models-texts";
import { roundFailure } from "./round-failure";
import type { ModelRole } from "./run-models";
import { costOf, costText, tokensOf, usageOf } from "./usage";

/** One round to run: on which role, for which call, with which records and tools. */
export interface ModelRoundSpec {
  readonly role: ModelRole;
  readonly via: ModelRoundVia;
  /** The records to send, oldest first (the list's own records: nothing is copied). */
  readonly records: readonly MessageRecord[];
  /** The tools to advertise, in order; empty for none. */
  readonly tools: readonly ModelTool[];
  /** The records' token cost, when the caller keeps a running count (estimate.ts). */
  readonly recordTokens?: number;
}

/** A completed round: its number and the reply. */
export interface CompletedRound {
  readonly turn: number;
  readonly reply: ModelReply;
}

/** The refusal of a request that cannot fit, before it is sent (compactors.md). */
export interface PrecheckRefusal {
  /** The estimate of the request, without the reserve. */
  readonly estimate: number;
  /** The reply's reserve: the role's `max_output_tokens`, else 0. */
  readonly reserve: number;
}

/**
 * The context precheck of a request on `binding` (docs/design/compactors.md): undefined when
 * the estimate plus the reserve fits the bound model's context window, else the numbers.
 */
export function precheck(binding: RunModelRole, estimate: number): PrecheckRefusal | undefined {
  const reserve = binding.settings.maxOutputTokens ?? 0;
  return estimate + reserve > binding.contextWindow ? { estimate, reserve } : undefined;
}

/**
 * A round's error as Lua raises it: with the cause an uncaught failure carries (`model round
 * {turn} of section {section} on {model} (role {label})`), and `internal` ending the run as
 * `Completion` (docs/design/outcomes.md: the model did not complete).
 */
export function roundError(
  entry: Entry,
  turn: number,
  role: ModelRole,
  error: EngineError,
): EngineError {
  const causeText = roundCauseText(turn, entry.name, role.binding?.model ?? "", role.label);
  return new EngineError(error.kind, error.message, error.fields, {
    causeText,
    ...(error.kind === "internal" ? { runErrorKind: "Completion" } : {}),
  });
}

/** A reply that has the shape a ModelReply promises (the Harness checks a provider's in full). */
function isReply(value: unknown): value is ModelReply {
  if (value === null || typeof value !== "object") return false;
  const reply = value as Partial<ModelReply>;
  return (
    typeof reply.text === "string" &&
    Array.isArray(reply.toolCalls) &&
    typeof reply.finishReason === "string" &&
    reply.usage !== null &&
    typeof reply.usage === "object" &&
    Number.isFinite(reply.usage.inputTokens) &&
    Number.isFinite(reply.usage.outputTokens)
  );
}

/** A reply's text or call count past its limit (loop.md §3.4), or undefined. */
function replyLimitProblem(reply: ModelReply): string | undefined {
  if (reply.text.length > MAX_REPLY_BYTES / 3) {
    const bytes = utf8Length(reply.text);
    if (bytes > MAX_REPLY_BYTES) return replyTooLargeMessage(bytes);
  }
  if (reply.toolCalls.length > MAX_REPLY_TOOL_CALLS) {
    return replyTooManyCallsMessage(reply.toolCalls.length);
  }
  return undefined;
}

/**
 * Runs one model round of `entry` (docs/design/loop.md §3, §7, §8): the context precheck, the
 * `modelRound` effect, the turn events, the round count and the usage. Resolves with the reply;
 * rejects with the error value Lua sees:
 *
 * - `context_exhausted` reason `precheck` before any request, with `context_precheck_failed`;
 * - the provider's failure (round-failure.ts), with `model_turn_failed`;
 * - `internal` for a reply past its limits, with `model_reply_refused` after the turn completed;
 * - `internal` for a port without `modelRound`, or a role the run did not bind;
 * - a quota refusal (kind `lua`, uncaught → `Quota`) with `budget_exceeded` when a budget
 *   refuses the round before it is sent or its reply crosses one (docs/design/budgets.md).
 *
 * Each error but the last carries the round's cause, and an `internal` one ends the run as
 * `Completion` when uncaught (see {@link roundError}).
 *
 * The round's number is the entry's rounds so far + 1; it counts at completion, so a failed
 * attempt and its retry share a number. The effect id is taken when the request is made (a
 * precheck refusal issues none). The request carries the entry's scope signals; once that scope
 * has ended (a cancel, a failure, a stop) nothing more is reported for the round: a model round
 * never survives a stop.
 */
export async function runModelRound(entry: Entry, spec: ModelRoundSpec): Promise<CompletedRound> {
  const { ctx, scope } = entry;
  scope.checkStop();
  const { role, via, records, tools } = spec;
  const binding = role.binding;
  if (binding === undefined) throw new EngineError("internal", unboundRoleMessage(role.label));
  const turn = entry.tools.rounds + 1;
  const { model } = binding;
  const fail = (error: EngineError): EngineError => roundError(entry, turn, role, error);
  const estimate = estimateRequest({
    system: binding.system,
    records,
    tools,
    recordTokens: spec.recordTokens,
  });
  const refusal = precheck(binding, estimate);
  if (refusal !== undefined) {
    ctx.emit(entry.source, "context_precheck_failed", {
      turn,
      role: role.label,
      model,
      estimated_tokens: estimate,
      context_window: binding.contextWindow,
    });
    const message = precheckMessage(
      estimate + refusal.reserve,
      refusal.reserve,
      binding.contextWindow,
      model,
    );
    throw fail(new EngineError("context_exhausted", message, { reason: "precheck" }));
  }
  const budgetRound: BudgetRound = { entry, turn, label: role.label, binding };
  checkBeforeRound(
    budgetRound,
    estimate,
    binding.settings.maxOutputTokens ?? binding.maxOutputTokens,
  );
  const port = ctx.options.effects;
  if (port.modelRound === undefined) throw fail(new EngineError("internal", NO_MODEL_PORT_MESSAGE));
  const effect = entry.nextEffectId();
  ctx.emit(entry.source, "model_turn_started", {
    turn,
    role: role.label,
    model,
    via,
    messages: records.length,
    tools: tools.length,
    estimated_tokens: estimate,
  });
  let reply: unknown;
  try {
    reply = await port.modelRound({
      role: role.label,
      model,
      via,
      turn,
      ...(binding.system === undefined ? {} : { system: binding.system }),
      messages: records,
      tools,
      settings: binding.settings,
      origin: entry.origin,
      effect,
      signal: scope.signal,
      stopSignal: scope.stopSignal,
      onProgress: (progress) => {
        if (progress.type !== "retry" || scope.ending !== undefined) return;
        ctx.emit(entry.source, "model_turn_retrying", {
          turn,
          role: role.label,
          model,
          via,
          attempt: progress.attempt,
          delay_ms: progress.delayMs,
          reason: progress.reason,
        });
      },
    });
  } catch (error) {
    if (scope.ending !== undefined) throw error;
    const failure = fail(roundFailure(error, model));
    const reason = failure.fields.reason;
    ctx.emit(entry.source, "model_turn_failed", {
      turn,
      role: role.label,
      model,
      via,
      kind: failure.kind,
      ...(typeof reason === "string" ? { reason } : {}),
      message: failure.message,
    });
    throw failure;
  }
  scope.checkStop();
  if (!isReply(reply)) {
    const failure = fail(new EngineError("internal", genericRoundFailureMessage(model)));
    ctx.emit(entry.source, "model_turn_failed", {
      turn,
      role: role.label,
      model,
      via,
      kind: failure.kind,
      message: failure.message,
    });
    throw failure;
  }
  entry.tools.rounds += 1;
  const { usage } = reply;
  const cost = roundCost(usage, binding.prices);
  const counted = usageOf(ctx).add(entry, model, usage, cost);
  ctx.emit(entry.source, "model_turn_completed", {
    turn,
    role: role.label,
    model,
    via,
    finish_reason: reply.finishReason,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cached_input_tokens: usage.cachedInputTokens ?? 0,
    reasoning_tokens: usage.reasoningTokens ?? 0,
    tool_calls: reply.toolCalls.length,
    cost_usd: costText(cost),
    section_tokens: tokensOf(counted.entry),
    section_cost_usd: costText(costOf(counted.entry)),
    task_tokens: tokensOf(counted.task),
    task_cost_usd: costText(costOf(counted.task)),
  });
  checkAfterRound(budgetRound, counted, usage.inputTokens + usage.outputTokens, cost);
  const problem = replyLimitProblem(reply);
  if (problem !== undefined) {
    ctx.emit(entry.source, "model_reply_refused", { turn, message: problem });
    throw fail(new EngineError("internal", problem));
  }
  return { turn, reply };
}
