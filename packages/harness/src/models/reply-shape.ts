import type { JsonValue, ModelReply, ModelToolCall, ModelUsage } from "@runvil/sdk";

/** A provider's reply checked and copied, or what is wrong with it. */
export type CheckedReply = { ok: true; reply: ModelReply } | { ok: false; problem: string };

/** A value for a message: its type, with arrays and null told apart. */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The problem with `value` as JSON data (plain objects, arrays, strings, finite numbers, booleans, null), or undefined. */
function jsonProblem(value: unknown, ancestors: Set<object>): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
  if (typeof value !== "object") return `${typeof value} is not JSON data`;
  if (ancestors.has(value)) return "it holds a cycle";
  if (!Array.isArray(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      return "an object that is not a plain object is not JSON data";
    }
  }
  ancestors.add(value);
  try {
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      const problem = jsonProblem(item, ancestors);
      if (problem !== undefined) return problem;
    }
  } finally {
    ancestors.delete(value);
  }
  return undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function checkUsage(value: unknown): ModelUsage | string {
  if (!isRecord(value)) return `usage must be an object, got ${typeOf(value)}`;
  const usage: { -readonly [K in keyof ModelUsage]: ModelUsage[K] } = {
    inputTokens: 0,
    outputTokens: 0,
  };
  for (const field of ["inputTokens", "outputTokens"] as const) {
    const count = value[field];
    if (!isCount(count))
      return `usage.${field} must be a whole number of at least 0, got ${String(count)}`;
    usage[field] = count;
  }
  for (const field of ["cachedInputTokens", "reasoningTokens"] as const) {
    const count = value[field];
    if (count === undefined) continue;
    if (!isCount(count))
      return `usage.${field} must be a whole number of at least 0, got ${String(count)}`;
    usage[field] = count;
  }
  return usage;
}

function checkToolCall(value: unknown, index: number): ModelToolCall | string {
  const at = `toolCalls[${index}]`;
  if (!isRecord(value)) return `${at} must be an object, got ${typeOf(value)}`;
  const { id, name } = value;
  if (typeof id !== "string") return `${at}.id must be a string, got ${typeOf(id)}`;
  if (typeof name !== "string") return `${at}.name must be a string, got ${typeOf(name)}`;
  if (!Object.hasOwn(value, "arguments")) return `${at}.arguments is missing`;
  const problem = jsonProblem(value.arguments, new Set());
  if (problem !== undefined) return `${at}.arguments must be JSON data: ${problem}`;
  return { id, name, arguments: value.arguments as JsonValue };
}

/**
 * Checks the shape of a provider's reply (docs/design/models.md §4): `text` a string,
 * `toolCalls` an array of `{ id, name, arguments }` with string ids and names and JSON data
 * arguments, `finishReason` a string, `usage` whole token counts ≥ 0. Answers a fresh copy
 * holding only those fields, so nothing else a provider attached reaches the run. What the
 * reply says (blank ids, arguments that are not an object, its size) is the Engine's to judge.
 */
export function checkReplyShape(value: unknown): CheckedReply {
  try {
    if (!isRecord(value))
      return { ok: false, problem: `the reply must be an object, got ${typeOf(value)}` };
    const { text, toolCalls, finishReason } = value;
    if (typeof text !== "string")
      return { ok: false, problem: `text must be a string, got ${typeOf(text)}` };
    if (!Array.isArray(toolCalls)) {
      return { ok: false, problem: `toolCalls must be an array, got ${typeOf(toolCalls)}` };
    }
    if (typeof finishReason !== "string") {
      return { ok: false, problem: `finishReason must be a string, got ${typeOf(finishReason)}` };
    }
    const usage = checkUsage(value.usage);
    if (typeof usage === "string") return { ok: false, problem: usage };
    const calls: ModelToolCall[] = [];
    for (const [index, call] of toolCalls.entries()) {
      const checked = checkToolCall(call, index);
      if (typeof checked === "string") return { ok: false, problem: checked };
      calls.push(checked);
    }
    return { ok: true, reply: { text, toolCalls: calls, finishReason, usage } };
  } catch (error) {
    // A getter that throws, a nesting too deep for the stack: the reply cannot be read.
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `the reply cannot be read (${detail})` };
  }
}
