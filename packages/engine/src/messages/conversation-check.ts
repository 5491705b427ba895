import type { JsonObject, ModelToolCall } from "@runvil/sdk";
import {
  assistantRecord,
  MESSAGE_ROLES,
  type MessageRecord,
  type MessageRole,
  systemRecord,
  toolCallsOf,
  toolRecord,
  userRecord,
} from "./message-record";
import { problems } from "./messages-texts";

/**
 * One text field of a record as the Lua side handed it over: absent, a string (its bytes valid
 * UTF-8), or present but unusable (another Lua type, or bytes that are not UTF-8).
 */
export type StagedText =
  | undefined
  | string
  | { readonly type: string }
  | { readonly invalidUtf8: true };

/** One element of a record's `tool_calls` as handed over: a call's fields, or not a table. */
export type StagedCall =
  | {
      readonly id: StagedText;
      readonly name: StagedText;
      /** The arguments as a JSON object, or null when they are not one. */
      readonly arguments: JsonObject | null;
    }
  | "not_table";

/**
 * One element of a conversation a Lua list gave (messages:restore, a compactor's result): a
 * record's fields, or a value that is no record at all.
 */
export type StagedRecord =
  | {
      readonly role: StagedText;
      readonly content: StagedText;
      /** Absent, not a list, or the calls in order. */
      readonly toolCalls: undefined | "not_list" | readonly StagedCall[];
      readonly toolCallId: StagedText;
      readonly name: StagedText;
    }
  | { readonly notRecord: string };

/** A conversation's first problem: the record (from 1) and what is wrong with it. */
export interface ConversationProblem {
  readonly index: number;
  readonly problem: string;
}

/** How a check ends: the records, or the first problem. */
export type ConversationCheck =
  | { readonly ok: true; readonly records: readonly MessageRecord[] }
  | ({ readonly ok: false } & ConversationProblem);

const ROLES: ReadonlySet<string> = new Set(MESSAGE_ROLES);

function isText(field: StagedText): field is string {
  return typeof field === "string";
}

/** A present, non-blank string, else undefined. */
function nonBlank(field: StagedText): string | undefined {
  return isText(field) && field.trim() !== "" ? field : undefined;
}

/** The calls of an assistant record, or the problem of the first bad one. */
function buildCalls(calls: readonly StagedCall[]): readonly ModelToolCall[] | string {
  const out: ModelToolCall[] = [];
  const seen = new Set<string>();
  for (const [at, call] of calls.entries()) {
    const j = at + 1;
    if (call === "not_table") return problems.callNotTable(j);
    const id = nonBlank(call.id);
    if (id === undefined) return problems.callNoId(j);
    const name = nonBlank(call.name);
    if (name === undefined) return problems.callNoName(id);
    if (call.arguments === null) return problems.callArguments(id);
    if (seen.has(id)) return problems.callIdRepeated(id);
    seen.add(id);
    out.push({ id, name, arguments: call.arguments });
  }
  return out;
}

/** One staged element as a record, or its problem (rules 1 and 3 of "Well-formed lists"). */
function buildRecord(staged: StagedRecord): MessageRecord | string {
  if ("notRecord" in staged) return problems.notRecord(staged.notRecord);
  const { role, content } = staged;
  if (!isText(role)) return problems.noRole();
  if (!ROLES.has(role)) return problems.unknownRole(role);
  if (content !== undefined && typeof content === "object" && "invalidUtf8" in content) {
    return problems.contentNotUtf8();
  }
  if (!isText(content)) return problems.noContent();
  const kind = role as MessageRole;
  if (staged.toolCalls !== undefined && kind !== "assistant") return problems.callsNotAssistant();
  if (kind !== "tool") {
    if (staged.toolCallId !== undefined) return problems.callIdNotTool();
    if (staged.name !== undefined) return problems.nameNotTool();
  }
  switch (kind) {
    case "system":
    case "user":
      if (content === "") return problems.emptyContent();
      return kind === "user" ? userRecord(content) : systemRecord(content);
    case "assistant": {
      if (staged.toolCalls === "not_list") return problems.callsNotList();
      const calls = buildCalls(staged.toolCalls ?? []);
      if (typeof calls === "string") return calls;
      if (content === "" && calls.length === 0) return problems.emptyContent();
      return assistantRecord(content, calls);
    }
    case "tool": {
      const callId = nonBlank(staged.toolCallId);
      if (callId === undefined) return problems.toolNoCallId();
      const name = nonBlank(staged.name);
      if (name === undefined) return problems.toolNoName();
      return toolRecord(content, callId, name);
    }
  }
}

/**
 * The first problem of a list of records with the tool rounds' order (rule 2 of "Well-formed
 * lists"): an assistant record with calls is followed directly by one tool record per call, in
 * call order, and a tool record appears nowhere else. Undefined when the order holds.
 */
export function conversationOrderProblem(
  records: readonly MessageRecord[],
): ConversationProblem | undefined {
  let pending: readonly ModelToolCall[] = [];
  let next = 0;
  let caller = 0;
  for (const [at, record] of records.entries()) {
    const index = at + 1;
    if (record.role === "tool") {
      const due = pending[next];
      if (due === undefined) return { index, problem: problems.answersNoCall() };
      if (record.toolCallId !== due.id) {
        const later = pending.slice(next + 1).some((call) => call.id === record.toolCallId);
        return {
          index,
          problem: later
            ? problems.answersOutOfOrder(record.toolCallId, due.id)
            : problems.answersOtherCall(record.toolCallId),
        };
      }
      next++;
      continue;
    }
    const unanswered = pending[next];
    if (unanswered !== undefined) {
      return { index: caller, problem: problems.unanswered(unanswered.id) };
    }
    pending = toolCallsOf(record);
    next = 0;
    caller = index;
  }
  const unanswered = pending[next];
  return unanswered === undefined
    ? undefined
    : { index: caller, problem: problems.unanswered(unanswered.id) };
}

/**
 * Checks a conversation a Lua list gave, whole, before anything changes (docs/design/messages.md
 * "Well-formed lists"): each element's shape, then the order of the tool rounds. An empty list
 * is well-formed here (a compactor's result must also not be empty: its caller checks that).
 */
export function checkConversation(staged: readonly StagedRecord[]): ConversationCheck {
  const records: MessageRecord[] = [];
  for (const [at, element] of staged.entries()) {
    const record = buildRecord(element);
    if (typeof record === "string") return { ok: false, index: at + 1, problem: record };
    records.push(record);
  }
  const order = conversationOrderProblem(records);
  if (order !== undefined) return { ok: false, ...order };
  return { ok: true, records };
}
