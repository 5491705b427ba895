import type { JsonObject } from "@runvil/sdk";
import type { RenderedTool } from "../tools/tool-scope";
import type { Entry } from "../walk/entry";

/** One model call to a task built-in, as the loop hands it over. */
export interface TaskBuiltinCall {
  /** `task`, `task_cancel`, `task_status` or `await_tasks`. */
  readonly name: string;
  /** The model's arguments, a JSON object (the whole-reply check passed). */
  readonly arguments: JsonObject;
  /** The model's call id. */
  readonly callId: string;
  /** The round that asked for the call. */
  readonly turn: number;
}

/**
 * Where the tasks area plugs into `models.loop` (docs/design/loop.md §5, task-builtins.md): the
 * four built-ins' definitions, advertised after the rendered list when the section called
 * `tools.allow_tasks` before its first loop round, and the calls themselves, each answered in
 * place with text (a refusal is text too, never a raise). The loop gates, routes, reports and
 * records the calls; the port only runs them.
 */
export interface TaskBuiltinPort {
  /** `task`, `task_cancel`, `task_status`, `await_tasks`, in that order, fixed for the run. */
  definitions(): readonly RenderedTool[];
  /** Runs one built-in call for `entry`; resolves with the answer the model reads. */
  run(entry: Entry, call: TaskBuiltinCall): Promise<{ readonly text: string }>;
}
