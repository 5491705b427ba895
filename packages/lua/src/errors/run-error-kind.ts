import type { ErrorKind } from "../engine-error";

/**
 * The run error kinds an uncaught failure of a block can end the run with (GAPS.md G19). The
 * Engine adds `RequirementsUnmet` (the H1 gate) and `Determinism` (store write conflicts), which
 * no single block decides.
 */
export type RunErrorKind = "Lua" | "Quota" | "Vfs" | "Tool" | "ContextExhausted" | "Completion";

const RUN_ERROR_KINDS: Readonly<Record<ErrorKind, RunErrorKind | undefined>> = {
  lua: "Lua",
  store: "Vfs",
  tool: "Tool",
  out_of_scope_tool: "Tool",
  unbound_tool: "Tool",
  tool_loop_exhausted: "Tool",
  context_exhausted: "ContextExhausted",
  empty_model_reply: "Completion",
  cancelled: undefined,
  tasks_live: "Lua",
  task_not_owned: "Lua",
  task_consumed: "Lua",
  internal: "Lua",
};

/**
 * The run error kind an uncaught error value of `kind` ends the run with, or undefined for
 * `cancelled`, which ends it with the cancelled outcome instead. A `lua` value that is a quota
 * refusal ends it as `Quota` instead (see EngineError.quota).
 */
export function runErrorKindOf(kind: ErrorKind): RunErrorKind | undefined {
  return RUN_ERROR_KINDS[kind];
}
