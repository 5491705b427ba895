import { named } from "./wire-server";

/** Usage of an Anthropic message, with prompt-cache reads. */
export const ANTHROPIC_USAGE = {
  input_tokens: 30,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 90,
  output_tokens: 25,
};

/** An Anthropic message of `content` blocks. */
export function message(content: unknown[], stopReason: string): unknown {
  return {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: ANTHROPIC_USAGE,
  };
}

/** The SSE events of a streamed message: text pieces, then tool_use blocks with JSON deltas. */
export function messageStream(
  pieces: readonly string[],
  calls: readonly { id: string; name: string; json: string }[] = [],
  stopReason = calls.length > 0 ? "tool_use" : "end_turn",
): string[] {
  const events = [
    named("message_start", {
      type: "message_start",
      message: {
        id: "msg_01",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...ANTHROPIC_USAGE, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (pieces.length > 0) {
    events.push(
      named("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }),
    );
    for (const text of pieces) {
      events.push(
        named("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text },
        }),
      );
    }
    events.push(named("content_block_stop", { type: "content_block_stop", index }));
    index += 1;
  }
  for (const call of calls) {
    events.push(
      named("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
      }),
      named("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: call.json },
      }),
      named("content_block_stop", { type: "content_block_stop", index }),
    );
    index += 1;
  }
  events.push(
    named("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 25 },
    }),
    named("message_stop", { type: "message_stop" }),
  );
  return events;
}

/** An Anthropic error body. */
export function anthropicError(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}
