import { data } from "./wire-server";

/** Usage of an OpenAI chat completion, with cached and reasoning tokens. */
export const CHAT_USAGE = {
  prompt_tokens: 120,
  completion_tokens: 30,
  total_tokens: 150,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 8 },
};

/** A chat completion (non-streamed) with `message` and `finish_reason`. */
export function chatCompletion(message: Record<string, unknown>, finishReason: string): unknown {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-4.1-mini",
    choices: [
      { index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason },
    ],
    usage: CHAT_USAGE,
  };
}

/** A function tool call of a chat completion. */
export function chatToolCall(id: string, name: string, args: string): unknown {
  return { id, type: "function", function: { name, arguments: args } };
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return data({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "gpt-4.1-mini",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

/** The SSE events of a streamed text reply: the role, the text in pieces, finish, usage, DONE. */
export function chatTextStream(pieces: readonly string[], finishReason = "stop"): string[] {
  return [
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((piece) => chunk({ content: piece })),
    ...chatStreamEnd(finishReason),
  ];
}

/** The closing events: the finish reason, the usage chunk, `[DONE]`. */
export function chatStreamEnd(finishReason: string): string[] {
  return [
    chunk({}, finishReason),
    data({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "gpt-4.1-mini",
      choices: [],
      usage: CHAT_USAGE,
    }),
    data("[DONE]"),
  ];
}

/** The SSE events of parallel tool calls, each call's arguments streamed in two pieces. */
export function chatToolStream(
  calls: readonly { id: string; name: string; args: string }[],
): string[] {
  const events = [chunk({ role: "assistant", content: null })];
  calls.forEach((call, index) => {
    const half = Math.floor(call.args.length / 2);
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.args.slice(0, half) },
          },
        ],
      }),
      chunk({ tool_calls: [{ index, function: { arguments: call.args.slice(half) } }] }),
    );
  });
  return [...events, ...chatStreamEnd("tool_calls")];
}

/** An OpenAI error body. */
export function openaiError(message: string, type: string, code: string | null): unknown {
  return { error: { message, type, param: null, code } };
}
