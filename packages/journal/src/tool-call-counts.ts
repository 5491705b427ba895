import { isTaskBuiltinName } from "@runvil/names";
import type { EventRecord } from "./records";

/**
 * A run's tool calls by kind (docs/design/journal.md "What a tool call count counts"): every
 * call reported by a `tool_call_started` event, whoever made it (a script's `tools.call`, a
 * model's call in a round).
 */
export interface ToolCallCounts {
  /** Every tool call: the sum of the three below. */
  readonly total: number;
  /** Calls of catalog tools (a Pack's, an MCP server's): each is a `tool` effect. */
  readonly catalog: number;
  /** Calls of local tools (`tools.offer_local`), run inside the Engine. */
  readonly local: number;
  /** The model's calls of the task built-ins (`task`, `task_cancel`, `task_status`, `await_tasks`). */
  readonly taskBuiltins: number;
}

/** The event type that reports a tool call, and that the journal counts. */
export const TOOL_CALL_EVENT = "tool_call_started";

/** Counts the tool calls of a run's events by kind. */
export function countToolCalls(events: readonly EventRecord[]): ToolCallCounts {
  let catalog = 0;
  let local = 0;
  let taskBuiltins = 0;
  for (const event of events) {
    if (event.type !== TOOL_CALL_EVENT) continue;
    const fields = JSON.parse(event.line) as { tool?: unknown; alias?: unknown };
    if (typeof fields.tool === "string") catalog += 1;
    // A built-in's name wins over a local alias (a local tool under one is never reachable).
    else if (typeof fields.alias === "string" && isTaskBuiltinName(fields.alias)) taskBuiltins += 1;
    else local += 1;
  }
  return { total: catalog + local + taskBuiltins, catalog, local, taskBuiltins };
}
