import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { JsonValue, ModelReply, ModelToolCall, ModelUsage } from "@runvil/sdk";

/**
 * A V3 finish reason as Runvil's: `stop`, `tool_calls`, `length`, `content_filter`, `error`,
 * and for `other` the provider's raw reason when it gave one.
 */
export function finishReasonOf(reason: LanguageModelV3FinishReason | undefined): string {
  switch (reason?.unified) {
    case "stop":
      return "stop";
    case "tool-calls":
      return "tool_calls";
    case "length":
      return "length";
    case "content-filter":
      return "content_filter";
    case "error":
      return "error";
    case "other":
      return reason.raw === undefined || reason.raw === "" ? "other" : reason.raw;
    default:
      return "unknown";
  }
}

function whole(value: number | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? Math.round(value)
    : undefined;
}

/**
 * V3 usage as Runvil's: input = the total (else no-cache + cache-read), cached = cache-read,
 * output = the total (else text + reasoning), reasoning = reasoning; a count the provider did
 * not give is 0 (or left out, for the optional ones).
 */
export function usageOf(usage: LanguageModelV3Usage | undefined): ModelUsage {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  const cached = whole(input?.cacheRead);
  const reasoning = whole(output?.reasoning);
  const inputTokens =
    whole(input?.total) ??
    (input?.noCache === undefined && cached === undefined
      ? 0
      : (whole(input?.noCache) ?? 0) + (cached ?? 0));
  const outputTokens =
    whole(output?.total) ??
    (output?.text === undefined && reasoning === undefined
      ? 0
      : (whole(output?.text) ?? 0) + (reasoning ?? 0));
  return {
    inputTokens,
    outputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

/**
 * A V3 tool call's input (a JSON string) as the call's arguments: the parsed JSON, `{}` for a
 * blank input (a call to a tool without parameters), and the raw text itself when it does not
 * parse, so the Engine's whole-reply check refuses the round with `tool call arguments were not
 * a JSON object (call …)` as the tools chapter describes.
 */
export function argumentsOf(input: string): JsonValue {
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input) as JsonValue;
  } catch {
    return input;
  }
}

/** A reply being assembled: text parts in order and the client-side tool calls. */
export interface ReplyParts {
  readonly texts: string[];
  readonly toolCalls: ModelToolCall[];
}

/** Adds one V3 content item to `parts` (reasoning, files, sources and provider-run tools are not part of Runvil's reply). */
export function addContent(parts: ReplyParts, content: LanguageModelV3Content): void {
  if (content.type === "text") parts.texts.push(content.text);
  else if (content.type === "tool-call" && content.providerExecuted !== true) {
    parts.toolCalls.push({
      id: content.toolCallId,
      name: content.toolName,
      arguments: argumentsOf(content.input),
    });
  }
}

/** The reply of assembled parts. */
export function replyOf(
  parts: ReplyParts,
  finishReason: LanguageModelV3FinishReason | undefined,
  usage: LanguageModelV3Usage | undefined,
): ModelReply {
  return {
    text: parts.texts.join(""),
    toolCalls: parts.toolCalls,
    finishReason: finishReasonOf(finishReason),
    usage: usageOf(usage),
  };
}
