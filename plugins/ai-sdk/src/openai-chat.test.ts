import { createOpenAI } from "@ai-sdk/openai";
import type { ModelRoundProgress } from "@runvil/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AiSdkProviderOptions, createAiSdkProvider } from "./ai-sdk-provider";
import {
  chatCompletion,
  chatTextStream,
  chatToolCall,
  chatToolStream,
  openaiError,
} from "./test-support/openai-chat-wire";
import { FAST_RETRY, failureOf, GRAB, roundRequest } from "./test-support/round";
import { WireServer } from "./test-support/wire-server";

const KEY = "sk-test-secret-0123456789";
let server: WireServer;

beforeEach(async () => {
  server = await new WireServer().start();
});
afterEach(async () => {
  await server.close();
});

function provider(overrides: Partial<AiSdkProviderOptions> = {}) {
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: KEY });
  return createAiSdkProvider({
    name: "openai",
    models: [
      {
        id: "openai:gpt-4.1-mini",
        apiId: "gpt-4.1-mini",
        contextWindow: 1_047_576,
        maxOutputTokens: 32_768,
        tools: true,
      },
    ],
    languageModel: (id) => openai.chat(id),
    keySetting: "the environment variable OPENAI_API_KEY",
    secrets: [KEY],
    retry: FAST_RETRY,
    ...overrides,
  });
}

describe("OpenAI chat completions, JSON (doGenerate)", () => {
  it("sends the records, system text, tools and settings, and reads text, finish reason and usage", async () => {
    server.answer({ json: chatCompletion({ content: "Hello there." }, "stop") });
    const reply = await provider({ stream: false }).round(
      roundRequest("openai:gpt-4.1-mini", [], {
        messages: [
          { role: "user", content: "find x" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_1", name: "grab", arguments: { q: "x" } }],
          },
          { role: "tool", content: "found x", toolCallId: "call_1", toolName: "grab" },
        ],
        tools: [GRAB],
        settings: { temperature: 0.2, maxOutputTokens: 100, stop: ["END"] },
      }),
    );
    expect(reply).toEqual({
      text: "Hello there.",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64, reasoningTokens: 8 },
    });
    const sent = server.requests[0];
    expect(sent?.path).toBe("/v1/chat/completions");
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toMatchObject({
      model: "gpt-4.1-mini",
      temperature: 0.2,
      max_tokens: 100,
      stop: ["END"],
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "find x" },
        {
          role: "assistant",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "grab", arguments: '{"q":"x"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "found x" },
      ],
      tools: [{ type: "function", function: { name: "grab", description: "Grabs a thing." } }],
    });
  });

  it("reads a batch of parallel tool calls with their parsed arguments", async () => {
    server.answer({
      json: chatCompletion(
        {
          content: null,
          tool_calls: [
            chatToolCall("call_a", "grab", '{"q":"a"}'),
            chatToolCall("call_b", "grab", '{"q":"b"}'),
          ],
        },
        "tool_calls",
      ),
    });
    const reply = await provider({ stream: false }).round(
      roundRequest("openai:gpt-4.1-mini", [], { tools: [GRAB] }),
    );
    expect(reply.finishReason).toBe("tool_calls");
    expect(reply.toolCalls).toEqual([
      { id: "call_a", name: "grab", arguments: { q: "a" } },
      { id: "call_b", name: "grab", arguments: { q: "b" } },
    ]);
  });

  it("hands a tool call whose input is not JSON to the Engine as text, which refuses the round", async () => {
    server.answer({
      json: chatCompletion(
        { content: null, tool_calls: [chatToolCall("c2", "grab", "{q: oops")] },
        "tool_calls",
      ),
    });
    const reply = await provider({ stream: false }).round(roundRequest("openai:gpt-4.1-mini"));
    expect(reply.toolCalls).toEqual([{ id: "c2", name: "grab", arguments: "{q: oops" }]);
  });

  it("maps the length finish reason", async () => {
    server.answer({ json: chatCompletion({ content: "cut" }, "length") });
    expect(
      (await provider({ stream: false }).round(roundRequest("openai:gpt-4.1-mini"))).finishReason,
    ).toBe("length");
  });
});

describe("OpenAI chat completions, SSE (doStream)", () => {
  it("assembles the streamed text and reports the output so far", async () => {
    server.answer({ sse: chatTextStream(["Hel", "lo, ", "world."]) });
    const progress: ModelRoundProgress[] = [];
    const reply = await provider().round(roundRequest("openai:gpt-4.1-mini", progress));
    expect(reply.text).toBe("Hello, world.");
    expect(reply.usage).toEqual({
      inputTokens: 120,
      outputTokens: 30,
      cachedInputTokens: 64,
      reasoningTokens: 8,
    });
    expect(progress.map((p) => (p.type === "output" ? p.outputTokens : -1))).toEqual([1, 2, 4, 30]);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
  });

  it("assembles parallel tool calls streamed in pieces", async () => {
    server.answer({
      sse: chatToolStream([
        { id: "call_a", name: "grab", args: '{"q":"alpha"}' },
        { id: "call_b", name: "grab", args: '{"q":"beta"}' },
      ]),
    });
    const reply = await provider().round(
      roundRequest("openai:gpt-4.1-mini", [], { tools: [GRAB] }),
    );
    expect(reply.finishReason).toBe("tool_calls");
    expect(reply.toolCalls).toEqual([
      { id: "call_a", name: "grab", arguments: { q: "alpha" } },
      { id: "call_b", name: "grab", arguments: { q: "beta" } },
    ]);
  });
});

describe("OpenAI errors", () => {
  it("retries a 429 after its Retry-After, reporting the retry, then succeeds", async () => {
    server.answer(
      {
        status: 429,
        headers: { "retry-after": "0.02" },
        json: openaiError("Rate limit reached", "requests", "rate_limit_exceeded"),
      },
      { sse: chatTextStream(["ok"]) },
    );
    const progress: ModelRoundProgress[] = [];
    const reply = await provider().round(roundRequest("openai:gpt-4.1-mini", progress));
    expect(reply.text).toBe("ok");
    expect(progress[0]).toEqual({
      type: "retry",
      attempt: 1,
      delayMs: 20,
      reason: "rate limited (429)",
    });
    expect(server.requests).toHaveLength(2);
  });

  it("retries a 500 and succeeds", async () => {
    server.answer(
      { status: 500, json: openaiError("The server had an error", "server_error", null) },
      { sse: chatTextStream(["fine"]) },
    );
    const progress: ModelRoundProgress[] = [];
    expect((await provider().round(roundRequest("openai:gpt-4.1-mini", progress))).text).toBe(
      "fine",
    );
    expect(progress[0]).toMatchObject({ type: "retry", attempt: 1, reason: "server error (500)" });
  });

  it("gives up after the retry count, naming the provider and the reason", async () => {
    server.answer({ status: 503, json: openaiError("overloaded", "server_error", null) });
    const failure = await failureOf(
      provider({ retry: { ...FAST_RETRY, maxRetries: 2 } }).round(
        roundRequest("openai:gpt-4.1-mini"),
      ),
    );
    expect(failure.kind).toBe("internal");
    expect(failure.message).toBe(
      "openai: overloaded (503) on openai:gpt-4.1-mini; gave up after 3 attempts",
    );
    expect(server.requests).toHaveLength(3);
  });

  it("gives up when a Retry-After would pass the retry time budget", async () => {
    server.answer({
      status: 429,
      headers: { "retry-after": "120" },
      json: openaiError("Rate limit reached", "requests", "rate_limit_exceeded"),
    });
    const failure = await failureOf(provider().round(roundRequest("openai:gpt-4.1-mini")));
    expect(failure.message).toBe(
      "openai: rate limited (429) on openai:gpt-4.1-mini; gave up after 1 attempt: the next wait (120.0 s) would pass the 60 s retry budget",
    );
  });

  it("maps a context-length refusal to context_exhausted", async () => {
    server.answer({
      status: 400,
      json: openaiError(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        "invalid_request_error",
        "context_length_exceeded",
      ),
    });
    const failure = await failureOf(provider().round(roundRequest("openai:gpt-4.1-mini")));
    expect(failure.kind).toBe("context_exhausted");
    expect(failure.message).toBe(
      "openai: the request does not fit openai:gpt-4.1-mini: This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    );
  });

  it("names the setting to fix for a wrong key, and never the key", async () => {
    server.answer({
      status: 401,
      json: openaiError(
        `Incorrect API key provided: ${KEY}.`,
        "invalid_request_error",
        "invalid_api_key",
      ),
    });
    const failure = await failureOf(provider().round(roundRequest("openai:gpt-4.1-mini")));
    expect(failure.message).toBe(
      "openai: the server refused the API key (401 Unauthorized); set the environment variable OPENAI_API_KEY to a valid key",
    );
    expect(failure.cause).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("fails anything else as a generic round failure whose logged cause has the key redacted", async () => {
    server.answer({ status: 418, json: openaiError(`teapot for ${KEY}`, "teapot", null) });
    const failure = await failureOf(provider().round(roundRequest("openai:gpt-4.1-mini")));
    expect(failure.kind).toBe("internal");
    expect(failure.message).toBe("openai: the model round on openai:gpt-4.1-mini failed");
    const logged = failure.cause as Error;
    expect(logged.stack).toContain("teapot for [redacted]");
    expect(`${logged.stack}${logged.message}`).not.toContain(KEY);
  });

  it("says which model id the server rejects", async () => {
    server.answer({
      status: 404,
      json: openaiError(
        "The model `gpt-4.1-mini` does not exist or you do not have access to it.",
        "invalid_request_error",
        "model_not_found",
      ),
    });
    const failure = await failureOf(provider().round(roundRequest("openai:gpt-4.1-mini")));
    expect(failure.message).toBe(
      'openai: the server does not know the model "gpt-4.1-mini" (404); check the model ids of provider openai in runvil.config.json',
    );
  });

  it("refuses malformed JSON as an invalid reply", async () => {
    server.answer({ raw: '{"id": "chatcmpl-1", "choices": [' });
    const failure = await failureOf(
      provider({ stream: false }).round(roundRequest("openai:gpt-4.1-mini")),
    );
    expect(failure.message).toBe(
      "openai: the reply of openai:gpt-4.1-mini is not valid (malformed JSON or an unexpected shape)",
    );
  });
});
