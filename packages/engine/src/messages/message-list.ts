import type { JsonValue } from "@runvil/sdk";
import { argumentError, DEFAULT_LUA_MEMORY_BYTES } from "../lua";
import { type ConversationCheck, checkConversation, type StagedRecord } from "./conversation-check";
import { contentBytes, type MessageRecord } from "./message-record";
import { conversationTooLargeMessage } from "./messages-texts";

/** A record as plain JSON data, with the field names Lua reads (`messages:copy()`). */
export interface PlainRecord {
  readonly role: MessageRecord["role"];
  readonly content: string;
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly name: string;
    readonly arguments: JsonValue;
  }[];
  readonly tool_call_id?: string;
  readonly name?: string;
}

/** One record as plain JSON data (fields in the order messages.md lists them). */
export function plainRecord(record: MessageRecord): PlainRecord {
  switch (record.role) {
    case "assistant":
      return record.toolCalls === undefined || record.toolCalls.length === 0
        ? { role: record.role, content: record.content }
        : {
            role: record.role,
            content: record.content,
            tool_calls: record.toolCalls.map(({ id, name, arguments: args }) => ({
              id,
              name,
              arguments: args,
            })),
          };
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

function sizeOf(records: readonly MessageRecord[]): number {
  let bytes = 0;
  for (const record of records) bytes += contentBytes(record);
  return bytes;
}

/**
 * One section entry's conversation (docs/design/messages.md): the records, oldest first, behind
 * the `messages` global. Empty when the entry begins; appends and replacements are all or
 * nothing and keep the content under the byte cap (the VM's Lua memory limit). Records are
 * immutable, so a round sends {@link records} as they stand.
 */
export class MessageList {
  /** The cap on the content bytes of the whole list. */
  readonly limit: number;
  #records: MessageRecord[] = [];
  #bytes = 0;
  /** The running sum of {@link tokens}: the cost function it was counted with, and how far. */
  #counted:
    | { cost: (record: MessageRecord) => number; records: number; tokens: number }
    | undefined;
  #staged: StagedRecord[] = [];

  constructor(limit: number = DEFAULT_LUA_MEMORY_BYTES) {
    this.limit = limit;
  }

  /** The records, oldest first (the list itself: read it, never keep it across a change). */
  get records(): readonly MessageRecord[] {
    return this.#records;
  }

  /** How many records the list holds. */
  get length(): number {
    return this.#records.length;
  }

  /** The UTF-8 bytes of every record's content. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The record at `index`, counted from 1 as Lua does; undefined outside 1..length. */
  at(index: number): MessageRecord | undefined {
    return Number.isInteger(index) && index >= 1 ? this.#records[index - 1] : undefined;
  }

  /**
   * Appends records in order, all or none: past the byte cap it raises
   * `messages: the conversation would exceed its {n}-byte limit` (kind lua) and changes nothing.
   */
  append(...records: readonly MessageRecord[]): void {
    const bytes = this.#bytes + sizeOf(records);
    this.checkSize(bytes);
    this.#records.push(...records);
    this.#bytes = bytes;
  }

  /** Replaces every record (a restore, a compaction), under the same cap as {@link append}. */
  /**
   * The sum of `cost` over the records, kept as a running count: appends add only the new
   * records' costs, a replacement starts over, another cost function starts over. What a loop
   * round's context estimate adds up on every round (models/estimate.ts), in time proportional to
   * what was appended since the last round rather than to the whole conversation.
   */
  tokens(cost: (record: MessageRecord) => number): number {
    let counted = this.#counted;
    if (counted === undefined || counted.cost !== cost) {
      counted = { cost, records: 0, tokens: 0 };
      this.#counted = counted;
    }
    const records = this.#records;
    for (let i = counted.records; i < records.length; i++) {
      const record = records[i];
      if (record !== undefined) counted.tokens += cost(record);
    }
    counted.records = records.length;
    return counted.tokens;
  }

  replace(records: readonly MessageRecord[]): void {
    const bytes = sizeOf(records);
    this.checkSize(bytes);
    this.#records = [...records];
    this.#bytes = bytes;
    this.#counted = undefined;
  }

  /** The list as plain JSON data, what `messages:copy()` and a compactor's `history` hold. */
  copyPlain(): PlainRecord[] {
    return this.#records.map(plainRecord);
  }

  /** Checks a conversation a Lua list gave, whole (see checkConversation). */
  check(staged: readonly StagedRecord[]): ConversationCheck {
    return checkConversation(staged);
  }

  /** Starts staging a Lua list's elements (the Lua side stages them one host call each). */
  beginStaging(): void {
    this.#staged = [];
  }

  /** Adds one staged element. */
  stage(record: StagedRecord): void {
    this.#staged.push(record);
  }

  /** The elements staged since {@link beginStaging}, handed over once. */
  takeStaged(): readonly StagedRecord[] {
    const staged = this.#staged;
    this.#staged = [];
    return staged;
  }

  private checkSize(bytes: number): void {
    if (bytes > this.limit) throw argumentError(conversationTooLargeMessage(this.limit));
  }
}
