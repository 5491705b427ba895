/**
 * The texts of `models.loop` and `handle:loop` (docs/design/loop.md). Texts marked *(spec)*
 * there are the chapters'; the rest are ours, recorded in loop.md. Quoted names use
 * {@link debugQuote} (`{name:?}`).
 */

import { debugList, debugQuote } from "../tools/debug-quote";

/** The Engine calls that start a loop. */
export type LoopFunction = "models.loop" | "handle:loop";

/** The calls a local tool handler cannot make: the two loops and a compaction. */
export type LoopOrCompactFunction = LoopFunction | "models.compact";

/** A loop called with more than one argument (`models.loop takes (compactor?)` *(spec)*). */
export function loopArityMessage(fn: LoopFunction): string {
  return `${fn} takes (compactor?)`;
}

/** A compactor argument that is neither nil nor a function. */
export function compactorTypeMessage(type: string): string {
  return `compactor must be a function, got ${type}`;
}

/** A loop or a compaction asked for while a local tool handler runs. */
export function handlerRefusalMessage(fn: LoopOrCompactFunction): string {
  return `${fn} is unavailable inside a local tool handler: the handler runs inside the loop that called it; ask a side question with models.infer`;
}

/** A loop or a compaction asked for while another loop of the same chain runs. */
export function loopBusyMessage(fn: LoopOrCompactFunction): string {
  return fn === "models.compact"
    ? "models.compact cannot run while models.loop runs in this chain"
    : `${fn} cannot start while another models.loop runs in this chain`;
}

/** A loop over an empty `messages`. */
export function emptyMessagesMessage(fn: LoopFunction): string {
  return `${fn}: messages is empty; add the conversation's first record, such as messages:user(text), before the loop`;
}

/** A loop that would advertise tools to a model whose catalog entry takes none. */
export function modelTakesNoToolsMessage(
  fn: LoopFunction,
  model: string,
  label: string,
  tools: number,
): string {
  return `${fn}: ${model} (role ${label}) takes no tools, and this section offers ${tools}; bind the role to a model that takes tools, or offer none`;
}

/** The round cap's refusal (kind tool_loop_exhausted) *(spec)*. */
export const TOOL_LOOP_EXHAUSTED_MESSAGE = "tool-call loop did not converge";

/** A loop reply with no text and no tool calls (kind empty_model_reply). */
export const EMPTY_LOOP_REPLY_MESSAGE = "the model replied with no text and no tool calls";

/** The hint a call to an unoffered catalog tool's wire name gets *(spec)*. */
export const NOT_OFFERED_HINT = " (a catalog tool that was not offered in this section)";

/**
 * The out_of_scope_tool message *(spec)*: the name, the round's advertised names in order, and
 * the not-offered hint when `notOffered`.
 */
export function outOfScopeMessage(
  name: string,
  advertised: readonly string[],
  notOffered: boolean,
): string {
  const hint = notOffered ? NOT_OFFERED_HINT : "";
  return `tool ${debugQuote(name)} is not in this section's scope; in-scope aliases: ${debugList(advertised)}${hint}`;
}

/** The refusals of a reply checked whole (kind internal; the first sentence is the spec's). */
export const replyProblems = {
  /** Call `position` (from 1) has no id, or a blank one. */
  blankId: (position: number) => `tool call id is blank (call ${position} of the reply)`,
  /** Call `id` has no name, or a blank one. */
  blankName: (id: string) => `tool call name is blank (call ${debugQuote(id)})`,
  /** Call `id` to `name` sent arguments that are not a JSON object *(spec: the first part)*. */
  notObject: (id: string, name: string) =>
    `tool call arguments were not a JSON object (call ${debugQuote(id)} to ${debugQuote(name)})`,
  /** Call id `id` is used twice in one reply. */
  repeatedId: (id: string) =>
    `tool call id ${debugQuote(id)} repeats another call's id in the same reply`,
} as const;

/** A section that asks for the task built-ins on a run that cannot serve them. */
export const NO_TASK_PORT_MESSAGE =
  "models.loop: this section allows tasks, and this run has no task built-ins to offer the model";
