import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAiSdkProvider } from "./ai-sdk-provider";
import {
  functionCallItem,
  messageItem,
  response,
  responsesTextStream,
  responsesToolStream,
} from "./test-support/openai-responses-wire";
import { FAST_RETRY, GRAB, roundRequest } from "./test-support/round";
import { WireServer } from "./test-support/wire-server";

let server: WireServer;
beforeEach(async () => {
  server = await new WireServer().start();
});
afterEach(async () => {
  await server.close();
});

const MODEL = "openai:gpt-5-mini";

function provider(stream: boolean) {
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "sk-responses-key-0000" });
  return createAiSdkProvider({
    name: "openai",
    models: [
      {
        id: MODEL,
        apiId: "gpt-5-mini",
        contextWindow: 400_000,
        maxOutputTokens: 128_000,
        tools: true,
      },
    ],
    languageModel: (id) => openai.responses(id),
    stream,
    retry: FAST_RETRY,
  });
}

describe("OpenAI responses", () => {
  it("sends the records as input items and reads text and usage with cached and reasoning tokens (JSON)", async () => {
    server.answer({ json: response([messageItem("Answer.")]) });
    const reply = await provider(false).round(
      roundRequest(MODEL, [], {
        messages: [
          { role: "user", content: "q" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_1", name: "grab", arguments: { q: "x" } }],
          },
          { role: "tool", content: "r", toolCallId: "call_1", toolName: "grab" },
        ],
        tools: [GRAB],
      }),
    );
    expect(reply).toEqual({
      text: "Answer.",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 200, outputTokens: 40, cachedInputTokens: 128, reasoningTokens: 16 },
    });
    const sent = server.requests[0];
    expect(sent?.path).toBe("/v1/responses");
    expect(sent?.body).toMatchObject({
      model: "gpt-5-mini",
      input: [
        // a reasoning model takes the system text as the developer's
        { role: "developer", content: "Be brief." },
        { role: "user", content: [{ type: "input_text", text: "q" }] },
        { type: "function_call", call_id: "call_1", name: "grab", arguments: '{"q":"x"}' },
        { type: "function_call_output", call_id: "call_1", output: "r" },
      ],
      tools: [{ type: "function", name: "grab", description: "Grabs a thing." }],
    });
  });

  it("reads parallel function calls and the tool-calls finish reason (JSON)", async () => {
    server.answer({
      json: response([
        functionCallItem("fc_1", "call_a", "grab", '{"q":"a"}'),
        functionCallItem("fc_2", "call_b", "grab", '{"q":"b"}'),
      ]),
    });
    const reply = await provider(false).round(roundRequest(MODEL, [], { tools: [GRAB] }));
    expect(reply.finishReason).toBe("tool_calls");
    expect(reply.toolCalls.map((c) => [c.id, c.arguments])).toEqual([
      ["call_a", { q: "a" }],
      ["call_b", { q: "b" }],
    ]);
  });

  it("maps an incomplete reply (max output tokens) to length", async () => {
    server.answer({ json: response([messageItem("cut")], "incomplete", "max_output_tokens") });
    expect((await provider(false).round(roundRequest(MODEL))).finishReason).toBe("length");
  });

  it("streams text (SSE)", async () => {
    server.answer({ sse: responsesTextStream(["Str", "eamed."]) });
    const reply = await provider(true).round(roundRequest(MODEL));
    expect(reply.text).toBe("Streamed.");
    expect(reply.usage).toEqual({
      inputTokens: 200,
      outputTokens: 40,
      cachedInputTokens: 128,
      reasoningTokens: 16,
    });
  });

  it("streams parallel function calls (SSE)", async () => {
    server.answer({
      sse: responsesToolStream([
        { id: "call_a", name: "grab", args: '{"q":"a"}' },
        { id: "call_b", name: "grab", args: '{"q":"b"}' },
      ]),
    });
    const reply = await provider(true).round(roundRequest(MODEL, [], { tools: [GRAB] }));
    expect(reply.toolCalls).toEqual([
      { id: "call_a", name: "grab", arguments: { q: "a" } },
      { id: "call_b", name: "grab", arguments: { q: "b" } },
    ]);
    expect(reply.finishReason).toBe("tool_calls");
  });
});
