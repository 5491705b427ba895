import type {
  ModelAssistantMessage,
  ModelMessage,
  ModelSystemMessage,
  ModelToolCall,
  ModelToolMessage,
  ModelUserMessage,
} from "@runvil/sdk";
import { utf8Length } from "./utf8-length";

/**
 * One record of a section's conversation (docs/design/messages.md): an immutable object that is
 * also the ModelMessage a round sends, so a round passes the list's records as they are.
 */
export type MessageRecord = ModelMessage;

/** A record's role. */
export type MessageRole = MessageRecord["role"];

/** The four roles, in the order refusals list them. */
export const MESSAGE_ROLES: readonly MessageRole[] = ["system", "user", "assistant", "tool"];

/** A user record. */
export function userRecord(content: string): ModelUserMessage {
  return Object.freeze({ role: "user", content });
}

/** A system record. */
export function systemRecord(content: string): ModelSystemMessage {
  return Object.freeze({ role: "system", content });
}

/** An assistant record: its text, and its tool calls when it made any (frozen, in order). */
export function assistantRecord(
  content: string,
  toolCalls: readonly ModelToolCall[] = [],
): ModelAssistantMessage {
  if (toolCalls.length === 0) return Object.freeze({ role: "assistant", content });
  const calls = Object.freeze(toolCalls.map((call) => Object.freeze({ ...call })));
  return Object.freeze({ role: "assistant", content, toolCalls: calls });
}

/** A tool record answering call `toolCallId`, made under `toolName`. */
export function toolRecord(
  content: string,
  toolCallId: string,
  toolName: string,
): ModelToolMessage {
  return Object.freeze({ role: "tool", content, toolCallId, toolName });
}

/** A record's tool calls: empty unless it is an assistant record that made calls. */
export function toolCallsOf(record: MessageRecord): readonly ModelToolCall[] {
  return record.role === "assistant" ? (record.toolCalls ?? []) : [];
}

const serials = new WeakMap<MessageRecord, number>();
let lastSerial = 0;

/**
 * A number naming this record object for as long as it lives, the same wherever it stands: the
 * Lua side keys its record views by it, so `messages[i]` gives one view per record.
 */
export function recordSerial(record: MessageRecord): number {
  let serial = serials.get(record);
  if (serial === undefined) {
    serial = ++lastSerial;
    serials.set(record, serial);
  }
  return serial;
}

const contentSizes = new WeakMap<MessageRecord, number>();

/** The UTF-8 byte length of a record's content, computed once per record. */
export function contentBytes(record: MessageRecord): number {
  let bytes = contentSizes.get(record);
  if (bytes === undefined) {
    bytes = utf8Length(record.content);
    contentSizes.set(record, bytes);
  }
  return bytes;
}
