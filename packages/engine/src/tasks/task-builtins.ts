import type { TaskBuiltinName } from "@runvil/names";
import type { JsonObject, JsonValue } from "@runvil/sdk";
import type { TaskBuiltinCall, TaskBuiltinPort } from "../loop/task-builtin-port";
import { ScopeEnded } from "../scope/scope";
import { CALL_RECURSION_MESSAGE } from "../walk/chain";
import type { Entry } from "../walk/entry";
import { runTasksOf, runTasksQuotaMessage } from "./run-tasks";
import {
  AWAIT_LIST_TYPE_MESSAGE,
  type AwaitedOutcome,
  alreadyAwaitedMessage,
  awaitedBlock,
  NO_TASKS_MESSAGE,
  NOTHING_TO_AWAIT_MESSAGE,
  notModelsTaskMessage,
  TASK_BUILTIN_DEFINITIONS,
  TASK_INPUT_TYPE_MESSAGE,
  TASK_TARGET_TYPE_MESSAGE,
  targetNotAllowedMessage,
  taskCancelledAnswer,
  taskIdTypeMessage,
  taskQuotaMessage,
  taskStartedMessage,
  taskStatusLine,
  taskTargetNotFoundMessage,
} from "./task-builtin-texts";
import { LIVE_TASKS_QUOTA_MESSAGE, MAX_LIVE_TASKS_PER_ENTRY } from "./task-messages";
import { errorValueOf, type TaskOutcome } from "./task-set";

/**
 * The model's tasks of each section entry: their ids in id order (the order they started),
 * each with its target as the model wrote it, trimmed. The model touches only these
 * (docs/design/task-builtins.md, "Which tasks the model may touch").
 */
const modelTasks = new WeakMap<Entry, Map<string, string>>();

function modelTasksOf(entry: Entry): Map<string, string> {
  let tasks = modelTasks.get(entry);
  if (tasks === undefined) {
    tasks = new Map();
    modelTasks.set(entry, tasks);
  }
  return tasks;
}

/** An optional argument: absent and JSON null both read as left out. */
function optional(args: JsonObject, key: string): JsonValue | undefined {
  const value = args[key];
  return value === null ? undefined : value;
}

/**
 * The refusal for a task id the built-in `name` may not use, or undefined: it must be one the
 * model started in this entry, and (with `unawaited`) one whose result was not taken yet.
 */
function ownershipRefusal(
  entry: Entry,
  name: TaskBuiltinName,
  id: string,
  unawaited: boolean,
): string | undefined {
  if (!modelTasksOf(entry).has(id)) return notModelsTaskMessage(name, id);
  if (unawaited && entry.taskSet.stateOf(id) === "awaited") return alreadyAwaitedMessage(name, id);
  return undefined;
}

/**
 * Resolves with `work`, or rejects with ScopeEnded as soon as the entry's scope is cancelled or
 * fails while it waits: the wait holds the round, and a cancel ends it as any cancel does.
 */
function untilScopeEnds<T>(entry: Entry, work: Promise<T>): Promise<T> {
  const { scope } = entry;
  const { signal } = scope;
  if (signal.aborted) return Promise.reject(new ScopeEnded(scope));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ScopeEnded(scope));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** `task`: checks in the design's order, then starts the task (an id string) or refuses. */
function startTask(entry: Entry, args: JsonObject): string {
  const target = args.target;
  if (typeof target !== "string") return TASK_TARGET_TYPE_MESSAGE;
  const input = optional(args, "input");
  if (input !== undefined && typeof input !== "string") return TASK_INPUT_TYPE_MESSAGE;
  const wanted = target.trim();
  const { allowlist } = entry.tools;
  if (allowlist !== "any") {
    const allowed = allowlist ?? [];
    if (!allowed.includes(wanted)) return targetNotAllowedMessage(wanted, allowed);
  }
  const { ctx } = entry;
  const section = ctx.tree.resolve(wanted, entry.section);
  if (section === null) return taskTargetNotFoundMessage(wanted);
  if (entry.chain.atCallCap) return taskQuotaMessage(CALL_RECURSION_MESSAGE);
  if (entry.taskSet.liveIds().length >= MAX_LIVE_TASKS_PER_ENTRY) {
    return taskQuotaMessage(LIVE_TASKS_QUOTA_MESSAGE);
  }
  const run = runTasksOf(ctx);
  if (run.full) return taskQuotaMessage(runTasksQuotaMessage(run.limit));
  const id = entry.taskSet.spawn({
    section,
    target: wanted,
    container: ctx.tree.parentOf(section),
    itemJson: input === undefined ? "null" : JSON.stringify(input),
    index: undefined,
    startVar: entry.readVar(),
    by: "model",
  });
  modelTasksOf(entry).set(id, wanted);
  return taskStartedMessage(id, wanted);
}

/** `task_status`: one line per task of the model's (or the one asked for), in id order. */
function taskStatus(entry: Entry, args: JsonObject): string {
  const one = optional(args, "task");
  if (one !== undefined && typeof one !== "string") return taskIdTypeMessage("task_status");
  const mine = modelTasksOf(entry);
  if (one !== undefined) {
    const refusal = ownershipRefusal(entry, "task_status", one, false);
    if (refusal !== undefined) return refusal;
  }
  const ids = one === undefined ? [...mine.keys()] : [one];
  if (ids.length === 0) return NO_TASKS_MESSAGE;
  // The states observe timing: the answer takes an effect id and is recorded (determinism.md);
  // a replaying port answers it from the record.
  const effect = entry.nextEffectId();
  const recalled = entry.ctx.options.effects.recall?.({
    via: "task_status",
    effect,
    origin: entry.origin,
  });
  const notes = runTasksOf(entry.ctx);
  const answer =
    recalled ??
    ids
      .map((id) =>
        taskStatusLine(
          id,
          entry.taskSet.stateOf(id) ?? "awaited",
          mine.get(id) ?? "",
          notes.noteOf(id),
        ),
      )
      .join("\n");
  entry.ctx.emit(entry.source, "task_observed", { via: "task_status", answer, effect });
  return answer;
}

/** What an awaited task's block reports. */
function awaitedOutcome(outcome: TaskOutcome | undefined): AwaitedOutcome {
  if (outcome === undefined) throw new Error("await_tasks: a joined task has no outcome");
  if (outcome.ok) return { kind: "succeeded", text: outcome.result ?? undefined };
  if (outcome.cancelled) return { kind: "cancelled" };
  return { kind: "failed", message: errorValueOf(outcome.error).message };
}

/**
 * `await_tasks`: every id checked first (a refusal answers alone and nothing waits), then a wait
 * for all of them, whose results it takes; one block per task in the asked order.
 */
async function awaitTasks(entry: Entry, args: JsonObject): Promise<string> {
  const listed = optional(args, "tasks");
  const { taskSet } = entry;
  let ids: string[];
  if (listed === undefined) {
    ids = [...modelTasksOf(entry).keys()].filter((id) => taskSet.stateOf(id) !== "awaited");
  } else {
    if (!Array.isArray(listed)) return AWAIT_LIST_TYPE_MESSAGE;
    const strings: string[] = [];
    for (const id of listed) {
      if (typeof id !== "string") return AWAIT_LIST_TYPE_MESSAGE;
      strings.push(id);
    }
    ids = [...new Set(strings)];
    for (const id of ids) {
      const refusal = ownershipRefusal(entry, "await_tasks", id, true);
      if (refusal !== undefined) return refusal;
    }
  }
  if (ids.length === 0) return NOTHING_TO_AWAIT_MESSAGE;
  await untilScopeEnds(entry, taskSet.join(ids));
  return ids.map((id) => awaitedBlock(id, awaitedOutcome(taskSet.outcomeOf(id)))).join("\n\n");
}

/** `task_cancel`: cancels the task and waits until it has unwound. */
async function cancelTask(entry: Entry, args: JsonObject): Promise<string> {
  const id = args.task;
  if (typeof id !== "string") return taskIdTypeMessage("task_cancel");
  const refusal = ownershipRefusal(entry, "task_cancel", id, true);
  if (refusal !== undefined) return refusal;
  await untilScopeEnds(entry, entry.taskSet.cancel([id]));
  return taskCancelledAnswer(id);
}

/** Runs one built-in call for `entry`: the answer the model reads (a refusal is text too). */
async function runTaskBuiltin(entry: Entry, call: TaskBuiltinCall): Promise<string> {
  // Once the scope has ended or is stopping, nothing starts: the loop ends with it.
  entry.scope.checkStop();
  switch (call.name) {
    case "task":
      return startTask(entry, call.arguments);
    case "task_cancel":
      return cancelTask(entry, call.arguments);
    case "task_status":
      return taskStatus(entry, call.arguments);
    case "await_tasks":
      return awaitTasks(entry, call.arguments);
    default:
      throw new Error(`no task built-in is named ${call.name}`);
  }
}

/**
 * The model's task built-ins (docs/design/task-builtins.md) over each entry's TaskSet: the run
 * context's `taskBuiltins` for every run (loop.md §5). It holds no run state of its own; the
 * model's tasks are kept per section entry.
 */
export const taskBuiltins: TaskBuiltinPort = {
  definitions: () => TASK_BUILTIN_DEFINITIONS,
  run: async (entry, call) => ({ text: await runTaskBuiltin(entry, call) }),
};
