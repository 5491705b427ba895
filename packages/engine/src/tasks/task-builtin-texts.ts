import type { RenderedTool } from "../tools/tool-scope";
import { sectionNotFoundMessage } from "../walk/heading-reference";

/**
 * The model's task built-ins as the model reads them, and every text they answer with
 * (docs/design/task-builtins.md, "Definitions", "What each answers").
 */

const TASK_ID_EXAMPLE = "such as 0.0";

/** The four definitions as the model reads them (the design's table). */
const DEFINITIONS: RenderedTool[] = [
  {
    name: "task",
    description:
      "Start a task: run one of this prompt's sections on its own while you keep working. Answers with the task's id. Collect its result with await_tasks.",
    parameters: {
      type: "object",
      properties: {
        input: { type: "string", description: "Text the task receives as its item." },
        target: {
          type: "string",
          description: "The heading of the section to run, with its # marks, such as ## Research.",
        },
      },
      required: ["target"],
    },
    tool: null,
  },
  {
    name: "task_cancel",
    description: "Cancel a task you started, and every task it started. Its result is discarded.",
    parameters: {
      type: "object",
      properties: {
        task: { type: "string", description: `The task id, ${TASK_ID_EXAMPLE}.` },
      },
      required: ["task"],
    },
    tool: null,
  },
  {
    name: "task_status",
    description:
      "Report the tasks you started: waiting, running, succeeded, failed, cancelled or awaited, with each task's latest note.",
    parameters: {
      type: "object",
      properties: {
        task: {
          type: "string",
          description: "One task id; leave it out for every task you started.",
        },
      },
      required: [],
    },
    tool: null,
  },
  {
    name: "await_tasks",
    description:
      "Wait until tasks you started have finished and return their results. Without tasks, waits for every task you have not awaited yet.",
    parameters: {
      type: "object",
      properties: {
        tasks: {
          type: "array",
          items: { type: "string" },
          description:
            "The task ids to wait for; leave it out to wait for every task you have not awaited.",
        },
      },
      required: [],
    },
    tool: null,
  },
];

/** Their definitions; `properties` in bytewise order, as for local tools. */
export const TASK_BUILTIN_DEFINITIONS: readonly RenderedTool[] = Object.freeze(DEFINITIONS);

/** A task's state as task_status reports it. */
export type ModelTaskState =
  | "waiting"
  | "running"
  | "succeeded"
  | "failed"
  | "cancelled"
  | "awaited";

export const TASK_TARGET_TYPE_MESSAGE = "task: target must be a section heading string";
export const TASK_INPUT_TYPE_MESSAGE = "task: input must be a string";
export const NO_TASKS_MESSAGE = "No tasks started in this section.";
export const NOTHING_TO_AWAIT_MESSAGE = "No tasks to await.";
export const AWAIT_LIST_TYPE_MESSAGE = "await_tasks: tasks must be a list of task id strings";

/** The chapter's refusal of a target outside a list allowlist *(spec)*. */
export function targetNotAllowedMessage(target: string, allowed: readonly string[]): string {
  return `task: target \`${target}\` is not allowed; allowed targets: ${allowed.join(", ")}`;
}

/** A target the section cannot resolve (the chapters' form, named by the built-in). */
export function taskTargetNotFoundMessage(target: string): string {
  return `task: ${sectionNotFoundMessage(target)}`;
}

/** A refusal `tasks.spawn` would raise (depth, live tasks), as the built-in's answer. */
export function taskQuotaMessage(message: string): string {
  return `task: ${message.replace(/^tasks\.spawn: /, "")}`;
}

/** A task start's answer: `^Task id=(%S+)` captures the id. */
export function taskStartedMessage(id: string, target: string): string {
  return `Task id=${id} started: ${target}`;
}

/** One task_status line. */
export function taskStatusLine(
  id: string,
  state: ModelTaskState,
  target: string,
  note: string | undefined,
): string {
  const line = `Task id=${id} ${state}: ${target}`;
  return note === undefined || note === "" ? line : `${line} (note: ${note})`;
}

/** task_cancel's answer. */
export function taskCancelledAnswer(id: string): string {
  return `Task id=${id} cancelled.`;
}

/** A `task` argument that is not a task id string, named by the built-in. */
export function taskIdTypeMessage(name: string): string {
  return `${name}: task must be a task id string`;
}

/** A task the model did not start in this section entry. */
export function notModelsTaskMessage(name: string, id: string): string {
  return `${name}: task ${id} was not started by the model in this section`;
}

/** A task whose result was already taken (by await_tasks or the script's join). */
export function alreadyAwaitedMessage(name: string, id: string): string {
  return `${name}: task ${id} was already awaited`;
}

/** One await_tasks block: a task's outcome. */
export type AwaitedOutcome =
  | { readonly kind: "succeeded"; readonly text: string | undefined }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "cancelled" };

/** The block of one awaited task. */
export function awaitedBlock(id: string, outcome: AwaitedOutcome): string {
  switch (outcome.kind) {
    case "succeeded":
      return outcome.text === undefined
        ? `Task id=${id} succeeded with no result`
        : `Task id=${id} succeeded:\n${outcome.text}`;
    case "failed":
      return `Task id=${id} failed: ${outcome.message}`;
    case "cancelled":
      return `Task id=${id} cancelled`;
  }
}
