import type { CatalogTool } from "@runvil/protocol";
import { type JsonObject, ToolFailure } from "@runvil/sdk";
import { noteToolCall } from "../models/sys-model";
import type { Scope } from "../scope/scope";
import { wrapUntrusted } from "../untrusted/envelope";
import type { Entry } from "../walk/entry";
import { runToolsOf } from "./run-tools";
import { reportToolCallStarted, type ToolCallIdentity } from "./tool-events";
import { genericToolFailureText } from "./tool-messages";

/** One catalog tool call, from a script (tools.call) or a model round. */
export interface CatalogCall {
  /** The catalog tool. */
  readonly tool: CatalogTool;
  /** The name the call used: the wire name, or the id for a tool left out of the offering. */
  readonly name: string;
  /** The arguments, a JSON object. */
  readonly arguments: JsonObject;
  /** Who calls. */
  readonly caller: "script" | "model";
  /** The model's call id; `''` for a script call. */
  readonly callId: string;
  /** The model round (a script call: the section's round count). */
  readonly turn: number;
}

/** How a dispatched call ended: the text the caller receives, or the tool's model-safe failure. */
export type CatalogCallOutcome =
  | { readonly ok: true; readonly text: string; readonly trusted: boolean }
  | { readonly ok: false; readonly message: string };

/** The identity the call's events carry. */
export function catalogCallIdentity(call: CatalogCall): ToolCallIdentity {
  return {
    turn: call.turn,
    callId: call.callId,
    alias: call.name,
    tool: call.tool.id,
    caller: call.caller,
  };
}

/**
 * Resolves a script call's name (tools chapter, "Naming the tool to call"): the run's offering
 * by exact id (the call then uses the wire name), then the whole catalog (a left-out tool uses
 * its id). Wire names and bare names never resolve.
 */
export function resolveScriptTool(
  entry: Entry,
  id: string,
): { readonly tool: CatalogTool; readonly name: string } | undefined {
  const run = runToolsOf(entry.ctx);
  const offered = run.offered(id);
  if (offered !== undefined) return { tool: offered, name: offered.wireName ?? offered.id };
  const tool = run.catalogTool(id);
  return tool === undefined ? undefined : { tool, name: tool.id };
}

/**
 * Dispatches one catalog call through the EffectPort (tools chapter, "Who runs a tool"): counts
 * it in tools.calls before it runs, reports `tool_call_started`, and waits for exactly one output
 * or one error. Untrusted output comes back inside the run's envelope. A ToolFailure gives its
 * model-safe message; any other failure the generic `{name}: the tool failed`. The caller reports
 * how the call ended. The request carries the signals of the entry's scope. Rejects (reporting
 * nothing) when that scope ends while the call waits, and issues nothing (ScopeEnded) once it
 * has ended or is stopped.
 *
 * A stop (docs/design/stop.md) aborts the request's `stopSignal`, not its `signal`: the Harness
 * stops the call unless its tool survives a stop. A call that ends after the stop with its own
 * answer or failure is reported as usual (the operator's answer is recorded); one that ends
 * with the stop's abort is not.
 */
export async function dispatchCatalogCall(
  entry: Entry,
  call: CatalogCall,
): Promise<CatalogCallOutcome> {
  const { ctx, scope } = entry;
  scope.checkStop();
  noteToolCall(entry);
  entry.tools.countDispatch(runToolsOf(ctx), call.tool.id);
  reportToolCallStarted(entry, catalogCallIdentity(call), call.arguments);
  const toolCall = ctx.options.effects.toolCall;
  if (toolCall === undefined) return { ok: false, message: genericToolFailureText(call.name) };
  try {
    const output = await toolCall.call(ctx.options.effects, {
      tool: call.tool.id,
      name: call.name,
      arguments: call.arguments,
      caller: call.caller,
      callId: call.callId,
      origin: entry.origin,
      effect: entry.nextEffectId(),
      signal: scope.signal,
      stopSignal: scope.stopSignal,
    });
    if (output.trusted) return { ok: true, text: output.text, trusted: true };
    return { ok: true, text: wrapUntrusted(output.text, ctx.nonce), trusted: false };
  } catch (error) {
    if (abandoned(scope, error)) throw error;
    if (ToolFailure.isInstance(error)) return { ok: false, message: error.message };
    return { ok: false, message: genericToolFailureText(call.name) };
  }
}

/**
 * Whether a call that rejected is left unreported because its scope ended: always after a
 * cancel or a failure; after a stop only when the rejection is the stop's abort (the signal's
 * reason, or any AbortError), not the tool's own failure.
 */
function abandoned(scope: Scope, error: unknown): boolean {
  const ending = scope.ending;
  if (ending === undefined) return false;
  if (ending.kind !== "stopped") return true;
  if (error === scope.stopSignal.reason) return true;
  return error instanceof Error && error.name === "AbortError";
}
