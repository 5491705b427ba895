import type { JsonObject } from "@runvil/sdk";
import { argumentTypeName, nonEmptyTextArgument } from "../globals/arguments";
import { argumentError, type HostCall, type HostFunction, NEW_USERDATA_FIELD } from "../lua";
import { keyText } from "../tools/tool-failures";
import type { Entry } from "../walk/entry";
import type { StagedCall, StagedText } from "./conversation-check";
import type { MessageList } from "./message-list";
import {
  assistantRecord,
  type MessageRecord,
  recordSerial,
  systemRecord,
  userRecord,
} from "./message-record";
import { messagesLuaBytecode } from "./messages-lua";
import {
  listText,
  MESSAGES_ASSIGN_MESSAGE,
  MESSAGES_METATABLE_TEXT,
  MESSAGES_READ_ONLY_MESSAGE,
  type MessageAppender,
  type MessageMethod,
  methodArityMessage,
  methodColonMessage,
  RECORD_METATABLE_TEXT,
  recordFrozenMessage,
  restoreListTypeMessage,
  restoreRecordMessage,
} from "./messages-texts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

const APPENDERS: Readonly<Record<MessageAppender, (text: string) => MessageRecord>> = {
  user: userRecord,
  assistant: (text) => assistantRecord(text),
  system: systemRecord,
};

/** The refusals the messages Lua raises through `H('fail', what, ...)`. */
function failureMessage(call: HostCall): string {
  const what = call.text(2);
  switch (what) {
    case "record_frozen":
      return recordFrozenMessage(keyText(call, 3));
    case "list_read_only":
      return MESSAGES_READ_ONLY_MESSAGE;
    case "colon":
      return methodColonMessage(call.text(3) as MessageMethod);
    case "arity":
      return methodArityMessage(call.text(3) as MessageMethod);
    case "list_type":
      // `what` is `restore` here; the model loop words its own refusal (its caller checks first).
      return restoreListTypeMessage(call.text(4) ?? "");
    default:
      throw new Error(`unknown messages refusal ${String(what)}`);
  }
}

/** Argument `index` as a staged text field: absent, UTF-8 text, or unusable. */
function stagedText(call: HostCall, index: number): StagedText {
  const type = call.type(index);
  if (type === "nil") return undefined;
  if (type !== "string") return { type: argumentTypeName(call, index) };
  try {
    return strictUtf8.decode(call.bytes(index) ?? new Uint8Array());
  } catch {
    return { invalidUtf8: true };
  }
}

/** A JSON object parsed from `text`, or null when it is not one. */
function jsonObject(text: unknown): JsonObject | null {
  if (typeof text !== "string") return null;
  const value: unknown = JSON.parse(text);
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as JsonObject)
    : null;
}

/** A record's tool_calls as the Lua side handed them: JSON text of a view, or a plain list. */
function stagedCalls(
  call: HostCall,
  index: number,
): undefined | "not_list" | readonly StagedCall[] {
  const type = call.type(index);
  if (type === "nil") return undefined;
  if (type === "string") {
    const calls = JSON.parse(call.text(index) ?? "[]") as readonly {
      readonly id: string;
      readonly name: string;
      readonly arguments: JsonObject;
    }[];
    return calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  }
  if (type !== "table") return "not_list";
  const value = call.value(index);
  const items: readonly unknown[] = Array.isArray(value) ? value : [];
  return items.map((item): StagedCall => {
    if (item === null || typeof item !== "object") return "not_table";
    const fields = item as {
      readonly id?: unknown;
      readonly name?: unknown;
      readonly arguments?: unknown;
    };
    return {
      id: plainText(fields.id),
      name: plainText(fields.name),
      arguments: jsonObject(fields.arguments),
    };
  });
}

/** A field read from a plain Lua table: strings as they are, anything else unusable. */
function plainText(value: unknown): StagedText {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  return { type: typeof value === "number" ? "number" : typeof value };
}

/**
 * The host side of the messages Lua for one entry: `H(op, ...)`. lazy-globals.lua asks for it on
 * the first read of `messages`; `H('code')` gives messages-impl.lua's bytecode and texts.
 */
export function messagesHost(entry: Entry): HostFunction {
  const list: MessageList = entry.messages;
  const bytecode = messagesLuaBytecode(entry.ctx.runtime);
  const texts = {
    list_meta: MESSAGES_METATABLE_TEXT,
    record_meta: RECORD_METATABLE_TEXT,
    new_userdata_field: NEW_USERDATA_FIELD,
  };
  return (call) => {
    const op = call.text(1);
    switch (op) {
      case "code":
        return [bytecode.impl, texts];
      case "fail":
        throw argumentError(failureMessage(call));
      case "assign":
        throw argumentError(MESSAGES_ASSIGN_MESSAGE);
      case "len":
        return [list.length];
      case "text":
        return [listText(list.length)];
      case "serial": {
        const record = list.at(Number(call.integer(2) ?? 0));
        return record === undefined ? [] : [recordSerial(record)];
      }
      case "record":
        return recordFields(list.at(Number(call.integer(2) ?? 0)));
      case "append": {
        const make = APPENDERS[call.text(2) as MessageAppender];
        list.append(make(nonEmptyTextArgument(call, 3, "text")));
        return [];
      }
      case "copy":
        return [list.records.map(recordRow)];
      case "stage_begin":
        list.beginStaging();
        return [];
      case "stage":
        list.stage({
          role: stagedText(call, 2),
          content: stagedText(call, 3),
          toolCalls: stagedCalls(call, 4),
          toolCallId: stagedText(call, 5),
          name: stagedText(call, 6),
        });
        return [];
      case "stage_bad":
        list.stage({ notRecord: call.text(2) ?? "" });
        return [];
      case "restore": {
        const checked = list.check(list.takeStaged());
        if (!checked.ok) throw argumentError(restoreRecordMessage(checked.index, checked.problem));
        list.replace(checked.records);
        return [];
      }
      default:
        throw new Error(`unknown messages operation ${String(op)}`);
    }
  };
}

/** A record's fields for its Lua view: role, content, tool_calls as JSON text, id, name. */
function recordFields(record: MessageRecord | undefined): readonly (string | null)[] {
  if (record === undefined) return [];
  switch (record.role) {
    case "assistant":
      return [record.role, record.content, callsJson(record)];
    case "tool":
      return [record.role, record.content, null, record.toolCallId, record.toolName];
    default:
      return [record.role, record.content];
  }
}

/** An assistant record's tool_calls as JSON text (the Lua side decodes it), or null. */
function callsJson(record: MessageRecord): string | null {
  if (record.role !== "assistant" || record.toolCalls === undefined) return null;
  if (record.toolCalls.length === 0) return null;
  return JSON.stringify(
    record.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  );
}

/** One row of `messages:copy()` before the Lua side decodes its tool_calls text. */
function recordRow(record: MessageRecord): Readonly<Record<string, string>> {
  switch (record.role) {
    case "assistant": {
      const calls = callsJson(record);
      return calls === null
        ? { role: record.role, content: record.content }
        : { role: record.role, content: record.content, tool_calls: calls };
    }
    case "tool":
      return {
        role: record.role,
        content: record.content,
        tool_call_id: record.toolCallId,
        name: record.toolName,
      };
    default:
      return { role: record.role, content: record.content };
  }
}
