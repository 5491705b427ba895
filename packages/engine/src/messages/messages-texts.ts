/**
 * The texts of the `messages` global and its record views (docs/design/messages.md; every text
 * is ours: the chapters leave them open). Quoted values use {@link debugQuote}.
 */

import { debugQuote } from "../tools/debug-quote";

/** The appenders, by method name. */
export type MessageAppender = "user" | "assistant" | "system";

/** Every method of the list. */
export type MessageMethod = MessageAppender | "copy" | "restore";

/** The parameters each method takes, as its arity refusal writes them. */
const METHOD_PARAMETERS: Readonly<Record<MessageMethod, string>> = {
  user: "text",
  assistant: "text",
  system: "text",
  copy: "",
  restore: "list",
};

/** Assigning the `messages` global. */
export const MESSAGES_ASSIGN_MESSAGE =
  "messages is the section's conversation and cannot be assigned; add records with messages:user, messages:assistant or messages:system";

/** Assigning a field or an index of the list. */
export const MESSAGES_READ_ONLY_MESSAGE =
  "messages is read-only: add records with messages:user, messages:assistant or messages:system";

/** What getmetatable returns for the list. */
export const MESSAGES_METATABLE_TEXT = "messages is guarded";

/** What getmetatable returns for a record view. */
export const RECORD_METATABLE_TEXT = "message records are frozen";

/** Assigning a field of a record view. */
export function recordFrozenMessage(key: string): string {
  return `message records are frozen: cannot assign field ${debugQuote(key)}`;
}

/** A method called with the wrong number of arguments. */
export function methodArityMessage(method: MessageMethod): string {
  return `messages:${method} takes (${METHOD_PARAMETERS[method]})`;
}

/** A method called with a dot, or on another value. */
export function methodColonMessage(method: MessageMethod): string {
  return `messages:${method} must be called with a colon: messages:${method}(${METHOD_PARAMETERS[method]})`;
}

/** An append, restore or round that would take the list's content past its byte cap. */
export function conversationTooLargeMessage(limit: number): string {
  return `messages: the conversation would exceed its ${limit}-byte limit`;
}

/** A restore (or a compactor's result) that is not a table. */
export function restoreListTypeMessage(type: string): string {
  return `messages:restore takes a list of records, got ${type}`;
}

/** A restore refused for one record. */
export function restoreRecordMessage(index: number, problem: string): string {
  return `messages:restore: record ${index} ${problem}`;
}

/** What the tostring of the list gives. */
export function listText(count: number): string {
  return `messages: ${count} records`;
}

/** The problems a malformed conversation can have, each completing `record {i} …`. */
export const problems = {
  notRecord: (type: string) => `is a ${type}, not a record`,
  noRole: () => "has no role string; a record's role is system, user, assistant or tool" as const,
  unknownRole: (role: string) =>
    `has role ${debugQuote(role)}; a record's role is system, user, assistant or tool`,
  noContent: () => "has no content string" as const,
  contentNotUtf8: () => "has content that is not valid UTF-8" as const,
  emptyContent: () =>
    "has empty content; only an assistant record with tool calls and a tool record may be empty" as const,
  callsNotAssistant: () => "has tool_calls, but only an assistant record makes tool calls" as const,
  callsNotList: () => "has tool_calls that is not a list of calls" as const,
  callNotTable: (j: number) => `has tool call ${j} that is not a table of id, name and arguments`,
  callNoId: (j: number) => `has tool call ${j} with no id`,
  callNoName: (id: string) => `has tool call ${debugQuote(id)} with no name`,
  callArguments: (id: string) =>
    `has tool call ${debugQuote(id)} whose arguments are not a JSON object`,
  callIdRepeated: (id: string) => `has tool call id ${debugQuote(id)} twice`,
  callIdNotTool: () => "has a tool_call_id, but only a tool record answers a call" as const,
  nameNotTool: () => "has a name, but only a tool record names the call it answers" as const,
  toolNoCallId: () => "is a tool record with no tool_call_id" as const,
  toolNoName: () => "is a tool record with no name" as const,
  answersNoCall: () => "is a tool record that answers no call" as const,
  answersOtherCall: (id: string) =>
    `answers call ${debugQuote(id)}, which the assistant record before it did not make`,
  answersOutOfOrder: (id: string, due: string) =>
    `answers call ${debugQuote(id)} before call ${debugQuote(due)}; tool records follow the order of the calls`,
  unanswered: (id: string) => `leaves call ${debugQuote(id)} unanswered`,
} as const;
