import { RUN_ERROR_KINDS, type RunErrorKind } from "@runvil/protocol";
import type { EngineError, ErrorKind } from "../lua";

/** The run error kind of each error value kind; undefined for `cancelled` (GAPS.md G19). */
const RUN_ERROR_KIND_OF: Readonly<Record<ErrorKind, RunErrorKind | undefined>> = {
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
 * The run error kind an uncaught Engine error (`UncaughtError.error`) ends the run with, or
 * undefined for `cancelled`, which ends it with the cancelled outcome instead. A value that
 * carries its own run error kind ends it with that one (an `internal` failure of a model round
 * ends it as `Completion`, EngineError.runErrorKind); a `lua` value marked as a quota refusal
 * ends it as `Quota` (EngineError.quota). The Engine adds
 * `RequirementsUnmet` (the H1 gate) and `Determinism` (store write conflicts), which no single
 * error value decides.
 */
export function runErrorKindOf(error: EngineError): RunErrorKind | undefined {
  const own = error.runErrorKind;
  if (own !== undefined && isRunErrorKind(own)) return own;
  if (error.kind === "lua" && error.quota) return "Quota";
  return RUN_ERROR_KIND_OF[error.kind];
}

function isRunErrorKind(name: string): name is RunErrorKind {
  return (RUN_ERROR_KINDS as readonly string[]).includes(name);
}
