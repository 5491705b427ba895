/** The texts of the `tasks` functions (docs/design/tasks.md, "Messages we wrote"). */

/** Each entry starts with this many tasks running at once. */
export const DEFAULT_TASK_CONCURRENCY = 8;
/** `tasks.concurrency` clamps a larger limit to this. */
export const MAX_TASK_CONCURRENCY = 256;
/** The most live tasks one section entry may hold. */
export const MAX_LIVE_TASKS_PER_ENTRY = 10_000;

export const SPAWN_ARITY_MESSAGE = "tasks.spawn takes (target, item?, options?)";
export const JOIN_ARITY_MESSAGE = "tasks.join takes (handles)";
export const JOIN_ANY_ARITY_MESSAGE = "tasks.join_any takes (handles)";
export const CANCEL_ARITY_MESSAGE = "tasks.cancel takes (handles)";
export const NOTE_ARITY_MESSAGE = "tasks.note takes (text)";
export const CONCURRENCY_ARITY_MESSAGE = "tasks.concurrency takes (n?)";
export const JOIN_ANY_EMPTY_MESSAGE = "tasks.join_any takes at least one task handle";
export const LIVE_TASKS_QUOTA_MESSAGE = `tasks.spawn: this section entry already has ${MAX_LIVE_TASKS_PER_ENTRY} live tasks`;

/** `tasks.join` / `tasks.join_any` given something other than a list. */
export function notAListMessage(fn: string, type: string): string {
  return `${fn} takes a list of task handles, got ${type}`;
}

/** A lone handle where a list was expected. */
export function loneHandleMessage(fn: string): string {
  return `${fn} takes a list of task handles; wrap a single handle as { handle }`;
}

/** A list entry that is not a handle. */
export function notAHandleMessage(fn: string, position: number, type: string): string {
  return `${fn}: entry ${position} is not a task handle, got ${type}`;
}

/** A task listed twice. */
export function listedTwiceMessage(fn: string, id: string): string {
  return `${fn}: task ${id} is listed twice`;
}

/** `tasks.cancel` given neither a handle nor a list. */
export function cancelArgumentMessage(type: string): string {
  return `tasks.cancel takes a task handle or a list of them, got ${type}`;
}

/** task_not_owned. */
export function notOwnedMessage(fn: string, id: string): string {
  return `${fn}: task ${id} was not started by this section entry`;
}

/** task_consumed. */
export function consumedMessage(fn: string, id: string): string {
  return `${fn}: task ${id} was already joined`;
}

/** tasks_live. */
export function tasksLiveMessage(ids: readonly string[]): string {
  return `tasks.concurrency cannot change while tasks are live: ${ids.join(",")}; join or cancel them first`;
}

/** The `cancelled` error value of a cancelled task's join entry. */
export function taskCancelledMessage(id: string): string {
  return `task ${id} was cancelled`;
}

/** A bad `tasks.concurrency` argument ({value}: the number as Lua prints it, else the type). */
export function concurrencyValueMessage(value: string): string {
  return `tasks.concurrency takes a positive whole number, got ${value}`;
}

/** A task note keeps at most this many characters of its first line. */
export const MAX_NOTE_CHARACTERS = 256;

/** The note `tasks.note` keeps: up to the first line break, at most 256 characters. */
export function noteText(text: string): string {
  const line = text.split(/\r?\n|\r/, 1)[0] ?? "";
  return Array.from(line).slice(0, MAX_NOTE_CHARACTERS).join("");
}
