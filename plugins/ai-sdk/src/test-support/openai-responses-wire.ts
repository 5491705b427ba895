import { data } from "./wire-server";

/** Usage of a Responses API reply, with cached and reasoning tokens. */
export const RESPONSES_USAGE = {
  input_tokens: 200,
  input_tokens_details: { cached_tokens: 128 },
  output_tokens: 40,
  output_tokens_details: { reasoning_tokens: 16 },
  total_tokens: 240,
};

/** A Responses API reply of `output` items. */
export function response(
  output: unknown[],
  status = "completed",
  incomplete?: string,
): Record<string, unknown> {
  return {
    id: "resp_1",
    object: "response",
    created_at: 1_700_000_000,
    status,
    model: "gpt-5-mini",
    output,
    incomplete_details: incomplete === undefined ? null : { reason: incomplete },
    usage: RESPONSES_USAGE,
  };
}

/** An output message item holding `text`. */
export function messageItem(text: string): unknown {
  return {
    type: "message",
    id: "msg_1",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/** A function call output item. */
export function functionCallItem(id: string, callId: string, name: string, args: string): unknown {
  return { type: "function_call", id, call_id: callId, name, arguments: args, status: "completed" };
}

/** The SSE events of a streamed text reply, in the Responses API's event order. */
export function responsesTextStream(pieces: readonly string[]): string[] {
  const text = pieces.join("");
  const inProgress = { ...response([], "in_progress"), usage: null };
  return [
    data({ type: "response.created", sequence_number: 0, response: inProgress }),
    data({
      type: "response.output_item.added",
      sequence_number: 1,
      output_index: 0,
      item: { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] },
    }),
    ...pieces.map((delta, i) =>
      data({
        type: "response.output_text.delta",
        sequence_number: 2 + i,
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta,
        logprobs: [],
      }),
    ),
    data({
      type: "response.output_item.done",
      sequence_number: 2 + pieces.length,
      output_index: 0,
      item: messageItem(text),
    }),
    data({
      type: "response.completed",
      sequence_number: 3 + pieces.length,
      response: response([messageItem(text)]),
    }),
  ];
}

/** The SSE events of parallel function calls, each call's arguments streamed as one delta. */
export function responsesToolStream(
  calls: readonly { id: string; name: string; args: string }[],
): string[] {
  const events = [
    data({
      type: "response.created",
      sequence_number: 0,
      response: { ...response([], "in_progress"), usage: null },
    }),
  ];
  let seq = 1;
  calls.forEach((call, index) => {
    const item = functionCallItem(`fc_${index}`, call.id, call.name, "");
    events.push(
      data({
        type: "response.output_item.added",
        sequence_number: seq++,
        output_index: index,
        item: { ...(item as object), status: "in_progress" },
      }),
      data({
        type: "response.function_call_arguments.delta",
        sequence_number: seq++,
        item_id: `fc_${index}`,
        output_index: index,
        delta: call.args,
      }),
      data({
        type: "response.output_item.done",
        sequence_number: seq++,
        output_index: index,
        item: functionCallItem(`fc_${index}`, call.id, call.name, call.args),
      }),
    );
  });
  events.push(
    data({
      type: "response.completed",
      sequence_number: seq,
      response: response(calls.map((c, i) => functionCallItem(`fc_${i}`, c.id, c.name, c.args))),
    }),
  );
  return events;
}
