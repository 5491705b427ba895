/**
 * The exact texts of the `tools` and `packs` globals (tools chapter). Quoted names use
 * {@link debugQuote} (`{name:?}`). Texts the chapter leaves open are decided in
 * docs/design/tools-globals.md.
 */

import { debugList, debugQuote } from "./debug-quote";

/** The refusal of an offer after the section's first loop round rendered its tool list. */
export function toolListFixedMessage(
  fn: "tools.offer" | "packs.offer" | "tools.offer_local",
): string {
  return `${fn}: the section's tool list is fixed at its first models.loop round; make every offer before the first loop, or offer in another section`;
}

/** tools.offer: an entry that is not a catalog tool the run offers. */
export function notCatalogToolMessage(name: string): string {
  return `tools.offer: ${debugQuote(name)} is not a catalog tool in this run`;
}

/** tools.offer with a second argument. */
export function offerExtraMessage(type: string): string {
  return `tools.offer takes one tool or a list of them, got extra ${type}`;
}

/** tools.offer with an argument or element that is neither a string nor a Tool object. */
export function offerShapeMessage(type: string): string {
  return `tools.offer takes tool ids, tool objects, or arrays of them, got ${type}`;
}

/** packs.offer with a second argument. */
export function packsOfferExtraMessage(type: string): string {
  return `packs.offer takes one Pack or a list of them, got extra ${type}`;
}

/** packs.offer with an argument or element that is neither a Pack id nor a Pack object. */
export function packsOfferShapeMessage(type: string): string {
  return `packs.offer takes a Pack id, a Pack object, or a list of them, got ${type}`;
}

/** packs.offer with a string that is not a valid Pack id. */
export function packsOfferInvalidIdMessage(text: string, reason: string): string {
  return `packs.offer takes a Pack id, a Pack object, or a list of them, got ${debugQuote(text)}: invalid Pack id: ${reason}`;
}

/** packs.offer of a Pack the run does not know. */
export function packsOfferUnknownMessage(name: string): string {
  const quoted = debugQuote(name);
  return `packs.offer: no Pack named ${quoted} in this run; declare it under uses: to require it, or offer it only when packs.get(${quoted}) returns it`;
}

/** packs.offer of a Pack the Host reports as unable to serve the run. */
export function packsOfferUnavailableMessage(name: string, reason: string): string {
  return `packs.offer: the ${name} Pack is unavailable in this run: ${reason}`;
}

/** tools.get with a non-string. */
export function toolsGetTypeMessage(type: string): string {
  return `tools.get takes a tool id, got ${type}`;
}

/** packs.get with a non-string. */
export function packsGetTypeMessage(type: string): string {
  return `packs.get takes a Pack id, got ${type}`;
}

/** tools.call with a first argument that is neither a string nor a Tool object. */
export function callShapeMessage(type: string): string {
  return `tools.call takes a tool id, a local alias, or a tool object, got ${type}`;
}

/** tools.call with an args value that is not a table. */
export function argsTypeMessage(type: string): string {
  return `args must be a table, got ${type}`;
}

/** tools.call with an args table that has no JSON form. */
export function argsNotJsonMessage(detail: string): string {
  return `args must be a JSON-representable table: ${detail}`;
}

/** The detail for an args table that is a list (decided: arguments are a JSON object). */
export const ARGS_LIST_DETAIL = "args is a list, not a table of named arguments";

/**
 * The detail of a json.encode refusal, as tools.call shows it: without the `json.encode: `
 * prefix, the root named `args` instead of `value` (`args.url must be JSON data, got function`).
 */
export function argsDetail(encodeMessage: string): string {
  return encodeMessage.replace(/^json\.encode: /, "").replace(/^value\b/, "args");
}

/** The frozen-object refusal, naming the field in double quotes. */
export function frozenMessage(kind: "Tool" | "Pack", key: string): string {
  return `${kind} objects are frozen: cannot assign field ${debugQuote(key)}`;
}

/** What getmetatable returns for a Tool object. */
export const TOOL_METATABLE_TEXT = "Tool objects are frozen";

/** What getmetatable returns for a Pack object. */
export const PACK_METATABLE_TEXT = "Pack objects are frozen";

/** Assigning into tools.calls (also what getmetatable(tools.calls) returns). */
export const CALLS_READ_ONLY_MESSAGE = "tools.calls is read-only";

/** A sealed Engine namespace table: `tools`, `packs` and `prompt`. */
export type SealedNamespace = "tools" | "packs" | "prompt";

/** Assigning a field of the `tools`, `packs` or `prompt` table (decided: all are sealed). */
export function namespaceReadOnlyMessage(global: SealedNamespace, key: string): string {
  return `${global} is read-only; cannot set '${key}'`;
}

/** What getmetatable returns for the `tools`, `packs` or `prompt` table. */
export function namespaceMetatableText(global: SealedNamespace): string {
  return `${global} is sealed`;
}

/** Why a tools.calls key has no count: the ending after the seeded list. */
export type MissingCountEnding = "catalog" | "typo" | "none";

/** tools.calls read of a key with no count. */
export function missingCountMessage(
  key: string,
  seeded: readonly string[],
  ending: MissingCountEnding,
): string {
  const head = `tools.calls: ${debugQuote(key)} has no seeded count; seeded names: ${debugList(seeded)}`;
  if (ending === "catalog") {
    return `${head} (a catalog tool that was neither offered in this section nor called with tools.call)`;
  }
  if (ending === "typo") return `${head} - check for typos or offer it with tools.offer`;
  return head;
}

/** The unbound_tool message: the name, and the ids of the tools the run offers, sorted. */
export function unboundToolMessage(name: string, catalogIds: readonly string[]): string {
  return `tool ${debugQuote(name)} is not a tool in this run; catalog tools: ${debugList(catalogIds)}`;
}

/** A dispatched tool's own failure, as Lua and the run see it. */
export function toolCallFailureMessage(message: string): string {
  return `tool call failure: ${message}`;
}

/** The model-safe text of a tool failure that is not a ToolFailure (decided, as the SDK does). */
export function genericToolFailureText(name: string): string {
  return `${name}: the tool failed`;
}

/** A structured tool whose output is not JSON: the error value's message, with the parser's detail. */
export function structuredInvalidJsonMessage(alias: string, detail: string): string {
  return `structured tool ${debugQuote(alias)} returned invalid JSON: ${detail}`;
}

/**
 * The same failure as its tool call failure report reads it (the `tool_call_failed` event):
 * `tool call failure: structured tool "{alias}" returned invalid JSON`, the parser's detail
 * left to the error value so it appears once in the error chain (tools chapter, "Structured
 * output").
 */
export function structuredInvalidJsonReport(alias: string): string {
  return toolCallFailureMessage(`structured tool ${debugQuote(alias)} returned invalid JSON`);
}

/** The refusal of jump while a local tool handler runs. */
export const JUMP_IN_HANDLER_MESSAGE =
  "jump is unavailable inside a local tool handler: return a value from the handler and call jump from the block after the tool call returns";

/** The scalar return rule's refusal of a handler's return value. */
export function handlerReturnMessage(type: string): string {
  return `cannot return a ${type} as a result`;
}

/** tools.offer_local: a second tool under an alias the section already uses. */
export function aliasTakenMessage(alias: string): string {
  return `tools.offer_local alias ${debugQuote(alias)} is already registered`;
}

/** tools.offer_local: a parameter type outside the four. */
export function paramTypeMessage(name: string, type: string): string {
  return `tools.offer_local param ${debugQuote(name)} has unsupported type ${debugQuote(type)}: expected "string", "integer", "number", or "boolean"`;
}

/** tools.offer_local: a parameter spec that is neither a type string nor a table. */
export function paramSpecMessage(name: string): string {
  return `tools.offer_local param ${debugQuote(name)} must be a type string or a {type, description} array`;
}

/** tools.offer_local: a parameter name that is not a string (decided). */
export function paramNameMessage(type: string): string {
  return `tools.offer_local param names must be strings, got ${type}`;
}

/**
 * The Lua conversion error for a `{type, description}` element that is not text (the chapter:
 * "a Lua conversion error instead of the named param error"; the wording is decided).
 */
export function conversionMessage(type: string): string {
  return `error converting Lua ${type} to String (expected string or number)`;
}

/** An Engine function argument of the wrong type: `{name} must be a {expected}, got {type}`. */
export function argumentTypeMessage(name: string, expected: string, type: string): string {
  return `${name} must be a ${expected}, got ${type}`;
}

/** tools.allow_tasks with a value that is neither nil nor a table. */
export function allowTasksTypeMessage(type: string): string {
  return `tools.allow_tasks targets must be a list of section headings, got ${type}`;
}

/** tools.allow_tasks with an entry that is not a string. */
export function allowTasksEntryMessage(type: string): string {
  return `tools.allow_tasks targets must be section heading strings, got ${type}`;
}

/** tools.allow_tasks with an empty or whitespace-only entry. */
export const ALLOW_TASKS_BLANK_MESSAGE =
  "tools.allow_tasks targets must be non-empty section headings";

/** tools.allow_tasks with an empty list. */
export const ALLOW_TASKS_EMPTY_MESSAGE =
  "tools.allow_tasks targets must name at least one section; call it with no argument to allow any section";
