import type { ModelTool } from "@runvil/sdk";
import { contentBytes, type MessageRecord } from "../messages/message-record";
import { utf8Length } from "../messages/utf8-length";

/**
 * The context precheck's estimate (docs/design/compactors.md "The context precheck"): a
 * deterministic count, documented so tests can aim at it.
 *
 * - a text costs `ceil(utf8_bytes / 4)` tokens;
 * - a record: its content + 4; an assistant record's calls add each call's name and the compact
 *   JSON of its arguments; a tool record adds its name and its tool_call_id;
 * - the system text: its cost + 4; each tool: the compact JSON of `{name, description,
 *   parameters}` + 8.
 *
 * Each record and each tool caches its own cost, so a round's estimate is a sum.
 */

/** What one text costs. */
export function textTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 4);
}

const recordCosts = new WeakMap<MessageRecord, number>();
const toolCosts = new WeakMap<ModelTool, number>();

/** What one record costs (cached per record). */
export function recordTokens(record: MessageRecord): number {
  let cost = recordCosts.get(record);
  if (cost === undefined) {
    cost = Math.ceil(contentBytes(record) / 4) + 4;
    if (record.role === "assistant") {
      for (const call of record.toolCalls ?? []) {
        cost += textTokens(call.name) + textTokens(JSON.stringify(call.arguments));
      }
    } else if (record.role === "tool") {
      cost += textTokens(record.toolName) + textTokens(record.toolCallId);
    }
    recordCosts.set(record, cost);
  }
  return cost;
}

/** What one advertised tool costs (cached per tool object). */
export function toolTokens(tool: ModelTool): number {
  let cost = toolCosts.get(tool);
  if (cost === undefined) {
    const { name, description, parameters } = tool;
    cost = textTokens(JSON.stringify({ name, description, parameters })) + 8;
    toolCosts.set(tool, cost);
  }
  return cost;
}

/** What a request holds, for its estimate. */
export interface EstimatedRequest {
  readonly system?: string | undefined;
  readonly records: readonly MessageRecord[];
  readonly tools: readonly ModelTool[];
  /**
   * The records' cost when the caller keeps a running count of it (a loop's list:
   * `MessageList.tokens(recordTokens)`); summed from `records` when absent.
   */
  readonly recordTokens?: number | undefined;
}

/** The estimate of a whole request: its records, its system text and its tools. */
export function estimateRequest(request: EstimatedRequest): number {
  let tokens = request.system === undefined ? 0 : textTokens(request.system) + 4;
  if (request.recordTokens !== undefined) tokens += request.recordTokens;
  else for (const record of request.records) tokens += recordTokens(record);
  for (const tool of request.tools) tokens += toolTokens(tool);
  return tokens;
}
