import { isJsonObject, type JsonObject, type ModelToolCall } from "@runvil/sdk";
import { replyProblems } from "./loop-texts";

/** One call of a reply that passed the whole-reply check: its arguments are a JSON object. */
export interface CheckedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonObject;
}

/** How the whole-reply check ends: the calls, or the first problem in call order. */
export type ReplyCheck =
  | { readonly ok: true; readonly calls: readonly CheckedCall[] }
  | { readonly ok: false; readonly message: string };

function isBlank(text: unknown): boolean {
  return typeof text !== "string" || text.trim() === "";
}

/**
 * Checks a reply's tool calls as a whole (tools chapter, "The arguments the model sends";
 * docs/design/loop.md §4.1) before any of them runs: each call in order must have a non-blank
 * id, a non-blank name and arguments that are a JSON object, and no id may repeat an earlier
 * call's. The first problem fails the whole round.
 */
export function checkReplyCalls(calls: readonly ModelToolCall[]): ReplyCheck {
  const seen = new Set<string>();
  for (const [at, call] of calls.entries()) {
    if (isBlank(call.id)) return { ok: false, message: replyProblems.blankId(at + 1) };
    if (isBlank(call.name)) return { ok: false, message: replyProblems.blankName(call.id) };
    if (!isJsonObject(call.arguments)) {
      return { ok: false, message: replyProblems.notObject(call.id, call.name) };
    }
    if (seen.has(call.id)) return { ok: false, message: replyProblems.repeatedId(call.id) };
    seen.add(call.id);
  }
  return { ok: true, calls: calls as readonly CheckedCall[] };
}
