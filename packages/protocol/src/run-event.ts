import type { JsonObject } from "@runvil/sdk";
import type { BudgetScope } from "./run-budget";
import type { RunErrorKind } from "./run-error";

/** How a section entry began. */
export type EntryVia = "h1" | "walk" | "jump" | "call" | "task";

/** How a section entry ended. */
export type EntryEnding = "return" | "jump" | "fall_through";

/** A placeholder failure's substitution kind (docs/design/prose.md). */
export type SubstitutionKind = "MissingKey" | "NullValue" | "Recursive" | "NotText";

/** The fields every event starts with (docs/design/events.md). */
export interface EventEnvelope {
  /** 1, 2, 3, … in emission order, run-wide. */
  readonly seq: number;
  /** The run's execution name (`sys.execution`). */
  readonly execution: string;
  /** The chain id (`0`, `0.1`, …). */
  readonly chain: string;
  /** The entry id (`sys.id`), or null for run-level events. */
  readonly entry: string | null;
  /** The reporting section's name: the title for the H1 pass and for run-level events. */
  readonly section: string;
}

/** The type-specific part of each event, by type. */
export interface EventFields {
  run_started: Record<never, never>;
  run_finished: {
    readonly outcome: "succeeded" | "failed" | "cancelled";
    readonly error_kind?: RunErrorKind;
    /** True when the run was stopped rather than cancelled (outcome `cancelled`). */
    readonly stopped?: true;
  };
  section_entered: { readonly via: EntryVia };
  section_completed: { readonly ended: EntryEnding };
  chunk_started: { readonly block: string };
  chunk_succeeded: { readonly block: string };
  chunk_failed: { readonly block: string };
  teardown_started: Record<never, never>;
  teardown_succeeded: Record<never, never>;
  lua_checkpoint: { readonly message: string };
  store_op: StoreOpEventFields;
  library_load_started: { readonly library: string };
  library_load_succeeded: { readonly library: string };
  library_load_failed: { readonly library: string };
  call_started: { readonly target: string; readonly child: string };
  call_returned: { readonly child: string; readonly returned: boolean };
  jump: { readonly target: string };
  /**
   * A task was spawned (docs/design/tasks.md, Events), or a fanout arm dispatched (`by:
   * "fanout"`, docs/design/fanout.md), on its owner entry.
   */
  task_started: {
    readonly task: string;
    readonly target: string;
    readonly by: "script" | "model" | "fanout";
    readonly index?: number;
  };
  /** A task's chain ended: the task's last event. */
  task_finished: {
    readonly task: string;
    readonly outcome: "succeeded" | "failed" | "cancelled";
    readonly error_kind?: RunErrorKind;
  };
  /** A join, join_any or the end-of-entry wait took these tasks' results, on the owner. */
  task_joined: { readonly tasks: readonly string[] };
  /** tasks.cancel cancelled these tasks, on the owner. */
  task_cancelled: { readonly tasks: readonly string[] };
  /** tasks.note set the calling task's note (its first line, at most 256 characters). */
  task_note: { readonly task: string; readonly text: string };
  /**
   * Two logically concurrent tasks used one store path, at least one changing it: the run ends
   * as `Determinism` (docs/design/determinism.md, "The store claim rule"). Before `run_finished`.
   */
  store_conflict: { readonly path: string; readonly tasks: readonly string[] };
  /**
   * An operation that observes timing answered (`tasks.join_any`'s choice: the chosen task's id;
   * the model's `task_status`: its answer text), on the owner; `effect` is the effect id it took
   * (docs/design/determinism.md, Replay).
   */
  task_observed: {
    readonly via: "join_any" | "task_status";
    readonly answer: string;
    readonly effect: string;
  };
  prose_render_failed: { readonly substitution: SubstitutionKind };
  // tools (docs/design/tools-globals.md)
  tool_dropped: { readonly tool: string; readonly pack: string; readonly reason: string };
  tool_call_started: ToolCallEventFields & { readonly arguments: JsonObject };
  tool_call_succeeded: ToolCallEventFields;
  tool_call_failed: ToolCallEventFields & { readonly message: string };
  tool_result: ToolResultEventFields;
  tool_scope_validation_started: Record<never, never>;
  tool_scope_validation_succeeded: { readonly tools: number };
  tool_scope_validation_failed: { readonly message: string };
  // models (docs/design/loop.md §9)
  model_role_bound: { readonly role: string; readonly model: string };
  model_turn_started: ModelTurnEventFields & {
    /** How many records the request sends. */
    readonly messages: number;
    /** How many tools it advertises. */
    readonly tools: number;
    /** The precheck's estimate of its tokens (compactors.md). */
    readonly estimated_tokens: number;
  };
  model_turn_completed: ModelTurnEventFields & {
    readonly finish_reason: string;
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cached_input_tokens: number;
    readonly reasoning_tokens: number;
    /** How many tool calls the reply made. */
    readonly tool_calls: number;
  } & RoundCostEventFields;
  model_turn_failed: ModelTurnEventFields & {
    /** The error value's kind (`context_exhausted`, `internal`, `cancelled`). */
    readonly kind: string;
    /** The context_exhausted reason, when it has one. */
    readonly reason?: string;
    readonly message: string;
  };
  /** The provider is about to retry the round (a rate limit, an overload, a network failure). */
  model_turn_retrying: ModelTurnEventFields & {
    /** The attempt that failed: 1 for the first. */
    readonly attempt: number;
    /** How long the provider waits before the next attempt. */
    readonly delay_ms: number;
    /** Why, model-safe: `rate limited (429)`. */
    readonly reason: string;
  };
  model_reply_refused: { readonly turn: number; readonly message: string };
  /** A budget refused a round before it was sent, or was crossed by its reply (budgets.md). */
  budget_exceeded: BudgetExceededEventFields;
  context_precheck_failed: {
    readonly turn: number;
    readonly role: string;
    readonly model: string;
    readonly estimated_tokens: number;
    readonly context_window: number;
  };
  // the loop and compaction (docs/design/loop.md §9, compactors.md)
  assistant_tool_calls: {
    readonly turn: number;
    /** The reply's calls in the model's order; `tool` names a bound call's tool id. */
    readonly calls: readonly AssistantToolCall[];
  };
  compaction_started: {
    readonly turn: number;
    /** `precheck`, `provider` or `explicit` (models.compact). */
    readonly reason: "precheck" | "provider" | "explicit";
    /** 1, 2, 3 within one round. */
    readonly attempt: number;
    /** How many records the list held. */
    readonly records: number;
    readonly estimated_tokens: number;
  };
  compaction_succeeded: {
    readonly turn: number;
    /** How many records the compacted list holds. */
    readonly records: number;
    readonly estimated_tokens: number;
  };
  compaction_failed: { readonly turn: number; readonly message: string };
}

/**
 * The cost fields of `model_turn_completed` (docs/design/cost.md): the round's own cost and the
 * running sums of its section entry and of its task once it is counted, both sequential, so the
 * events are the same however concurrent chains interleave (the run's sums are in the run
 * result). Costs are US dollars as exact decimal text (`"0.0042"`), or null when a round counted
 * in them ran on a model without prices. Tokens are input + output.
 */
export interface RoundCostEventFields {
  /** This round's cost; null when its model has no prices. */
  readonly cost_usd: string | null;
  /** The tokens of this section entry (`sys.id`) so far. */
  readonly section_tokens: number;
  readonly section_cost_usd: string | null;
  /** The tokens of this task (`sys.taskid`) so far. */
  readonly task_tokens: number;
  readonly task_cost_usd: string | null;
}

/** Which budget stopped a round, and by how much (docs/design/budgets.md). */
export interface BudgetExceededEventFields {
  readonly turn: number;
  readonly role: string;
  readonly model: string;
  /** The budget's scope: the run, or this section. */
  readonly scope: BudgetScope;
  /** What it limits: tokens, or US dollars. */
  readonly measure: "tokens" | "cost_usd";
  /** Where the limit in force came from: the prompt's frontmatter or the Host's config. */
  readonly from: "frontmatter" | "host";
  /** The limit: a whole number of tokens, or dollars as decimal text. */
  readonly limit: number | string;
  /** What the scope had spent: before the round (`estimate`), or with it (`actual`). */
  readonly spent: number | string;
  /** `estimate`: the round was refused before it was sent; `actual`: its reply crossed the limit. */
  readonly check: "estimate" | "actual";
  /** For `estimate`: the most the round could spend (its estimate plus its max output). */
  readonly round?: number | string;
}

/** One call of an `assistant_tool_calls` event. */
export interface AssistantToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonObject;
  /** The tool id behind a bound call's wire name; absent for a local tool or a task built-in. */
  readonly tool?: string;
}

/** Which round a model turn event reports, on which role and model, asked by which call. */
export interface ModelTurnEventFields {
  /** The round number, per section entry from 1. */
  readonly turn: number;
  /** The role label. */
  readonly role: string;
  /** The catalog model id. */
  readonly model: string;
  /** `infer`, `loop` or `compact`. */
  readonly via: "infer" | "loop" | "compact";
}

/** Who made a tool call, and how it is named (the tool_call_* events). */
export interface ToolCallEventFields {
  /** The model round the call belongs to (a script call: the section's round count). */
  readonly turn: number;
  /** The model's call id; `''` for a script call. */
  readonly tool_call_id: string;
  /** The name the call used: a wire name, a local alias, or a left-out tool's id. */
  readonly alias: string;
  /** The catalog tool's id; absent for a local tool. */
  readonly tool?: string;
  /** `script` for tools.call, `model` for a model tool call. */
  readonly caller: "script" | "model";
}

/** A tool call's result (the tools chapter's tool_result event). */
export interface ToolResultEventFields {
  readonly turn: number;
  readonly tool_call_id: string;
  readonly alias: string;
  /** The catalog tool's id; absent for a local tool. */
  readonly tool?: string;
  /** The result text the caller receives (untrusted output inside its envelope). */
  readonly content: string;
  /** The trust level: false for untrusted output; a local tool's result is trusted. */
  readonly trusted: boolean;
}

/** The fields of a store report: the operation, what it named, and how it ended. */
export interface StoreOpEventFields {
  readonly op: string;
  readonly path?: string;
  readonly prefix?: string;
  readonly pattern?: string;
  readonly ok: boolean;
  readonly reason?: string;
}

/** An event type. */
export type RunEventType = keyof EventFields;

/** One run event: the envelope, its `type`, and the type's own fields. */
export type RunEvent = {
  [T in RunEventType]: EventEnvelope & { readonly type: T } & EventFields[T];
}[RunEventType];

/** An event of one type. */
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/**
 * One event as a JSON Lines line: the envelope fields first (`seq`, `type`, `execution`,
 * `chain`, `entry`, `section`), then the type's fields, then `\n`.
 */
export function formatEventLine(event: RunEvent): string {
  const { seq, type, execution, chain, entry, section, ...fields } = event;
  return `${JSON.stringify({ seq, type, execution, chain, entry, section, ...fields })}\n`;
}
