import type { ToolCallEventFields } from "@runvil/protocol";
import type { JsonObject } from "@runvil/sdk";
import type { RunContext } from "../run/run-context";
import type { Entry } from "../walk/entry";

/** One tool call as its events name it. */
export interface ToolCallIdentity {
  /** The model round (a script call: the section's round count at the call). */
  readonly turn: number;
  /** The model's call id; `''` for a script call. */
  readonly callId: string;
  /** The name the call used. */
  readonly alias: string;
  /** The catalog tool's id; undefined for a local tool. */
  readonly tool: string | undefined;
  /** Who called. */
  readonly caller: "script" | "model";
}

function fields(call: ToolCallIdentity): ToolCallEventFields {
  // Object literals, not spreads: these run on every tool call.
  return call.tool === undefined
    ? { turn: call.turn, tool_call_id: call.callId, alias: call.alias, caller: call.caller }
    : {
        turn: call.turn,
        tool_call_id: call.callId,
        alias: call.alias,
        tool: call.tool,
        caller: call.caller,
      };
}

/** Reports a tool call about to run, with its arguments (`tool_call_started`). */
export function reportToolCallStarted(
  entry: Entry,
  call: ToolCallIdentity,
  args: JsonObject,
): void {
  const started = fields(call) as ToolCallEventFields & { arguments: JsonObject };
  started.arguments = args;
  entry.ctx.emit(entry.source, "tool_call_started", started);
}

/**
 * Reports a call that answered: `tool_call_succeeded`, then `tool_result` with the text the
 * caller receives and its trust level.
 */
export function reportToolCallSucceeded(
  entry: Entry,
  call: ToolCallIdentity,
  content: string,
  trusted: boolean,
): void {
  entry.ctx.emit(entry.source, "tool_call_succeeded", fields(call));
  reportToolResult(entry, call, content, trusted);
}

/**
 * Reports the result a call's caller receives (`tool_result`): after `tool_call_succeeded`, or
 * after `tool_call_failed` for a model's call to a bound tool, whose failure text the model
 * reads (trusted false).
 */
export function reportToolResult(
  entry: Entry,
  call: ToolCallIdentity,
  content: string,
  trusted: boolean,
): void {
  entry.ctx.emit(
    entry.source,
    "tool_result",
    call.tool === undefined
      ? { turn: call.turn, tool_call_id: call.callId, alias: call.alias, content, trusted }
      : {
          turn: call.turn,
          tool_call_id: call.callId,
          alias: call.alias,
          tool: call.tool,
          content,
          trusted,
        },
  );
}

/** Reports a call that failed (`tool_call_failed`); a failed script call has no tool_result. */
export function reportToolCallFailed(entry: Entry, call: ToolCallIdentity, message: string): void {
  const failed = fields(call) as ToolCallEventFields & { message: string };
  failed.message = message;
  entry.ctx.emit(entry.source, "tool_call_failed", failed);
}

/** Reports each tool the Host dropped at prepare (`tool_dropped`), once, when the run starts. */
export function reportDroppedTools(ctx: RunContext): void {
  const source = { chain: "0", entry: null, section: ctx.prompt.title.title };
  for (const dropped of ctx.options.catalog.dropped) {
    ctx.emit(source, "tool_dropped", {
      tool: dropped.tool,
      pack: dropped.pack,
      reason: dropped.reason,
    });
  }
}
