/**
 * The four task built-in names, in the order a round lists them (tools chapter, "Reserved task
 * built-in names"). They win over every tool of the same name: a catalog tool under one is left
 * out of the offering, and a tools.call to one is unbound.
 */
export const TASK_BUILTIN_NAMES = ["task", "task_cancel", "task_status", "await_tasks"] as const;

/** One of the four task built-in names. */
export type TaskBuiltinName = (typeof TASK_BUILTIN_NAMES)[number];

const NAMES: ReadonlySet<string> = new Set(TASK_BUILTIN_NAMES);

/** Whether `name` is one of the four task built-in names (compared exactly). */
export function isTaskBuiltinName(name: string): name is TaskBuiltinName {
  return NAMES.has(name);
}
