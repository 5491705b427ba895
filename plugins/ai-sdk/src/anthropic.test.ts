import { createAnthropic } from "@ai-sdk/anthropic";
import type { ModelRoundProgress } from "@runvil/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAiSdkProvider } from "./ai-sdk-provider";
import { anthropicError, message, messageStream } from "./test-support/anthropic-wire";
import { FAST_RETRY, failureOf, GRAB, roundRequest } from "./test-support/round";
import { WireServer } from "./test-support/wire-server";

const KEY = "sk-ant-test-secret-987654";
const MODEL = "anthropic:claude-sonnet-4-5";
let server: WireServer;
beforeEach(async () => {
  server = await new WireServer().start();
});
afterEach(async () => {
  await server.close();
});

function provider(stream = true) {
  const anthropic = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: KEY });
  return createAiSdkProvider({
    name: "anthropic",
    models: [
      {
        id: MODEL,
        apiId: "claude-sonnet-4-5",
        contextWindow: 200_000,
        maxOutputTokens: 64_000,
        tools: true,
      },
    ],
    languageModel: (id) => anthropic.languageModel(id),
    stream,
    keySetting: "the environment variable ANTHROPIC_API_KEY",
    secrets: [KEY],
    retry: FAST_RETRY,
  });
}

describe("Anthropic messages", () => {
  it("sends system text, records and tools, and reads text, tool calls, stop reason and cached usage (JSON)", async () => {
    server.answer({
      json: message(
        [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "toolu_1", name: "grab", input: { q: "a" } },
          { type: "tool_use", id: "toolu_2", name: "grab", input: { q: "b" } },
        ],
        "tool_use",
      ),
    });
    const reply = await provider(false).round(
      roundRequest(MODEL, [], {
        messages: [
          { role: "user", content: "q" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "toolu_0", name: "grab", arguments: { q: "z" } }],
          },
          { role: "tool", content: "r", toolCallId: "toolu_0", toolName: "grab" },
        ],
        tools: [GRAB],
      }),
    );
    expect(reply).toEqual({
      text: "Let me look.",
      toolCalls: [
        { id: "toolu_1", name: "grab", arguments: { q: "a" } },
        { id: "toolu_2", name: "grab", arguments: { q: "b" } },
      ],
      finishReason: "tool_calls",
      usage: { inputTokens: 120, outputTokens: 25, cachedInputTokens: 90 },
    });
    const sent = server.requests[0];
    expect(sent?.path).toBe("/v1/messages");
    expect(sent?.headers["x-api-key"]).toBe(KEY);
    expect(sent?.body).toMatchObject({
      model: "claude-sonnet-4-5",
      system: [{ type: "text", text: "Be brief." }],
      messages: [
        { role: "user", content: [{ type: "text", text: "q" }] },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_0", name: "grab", input: { q: "z" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_0", content: "r" }] },
      ],
      tools: [{ name: "grab", description: "Grabs a thing." }],
    });
  });

  it("maps max_tokens to length", async () => {
    server.answer({ json: message([{ type: "text", text: "cut" }], "max_tokens") });
    expect((await provider(false).round(roundRequest(MODEL))).finishReason).toBe("length");
  });

  it("streams text and parallel tool calls (SSE)", async () => {
    server.answer({
      sse: messageStream(
        ["Work", "ing."],
        [
          { id: "toolu_a", name: "grab", json: '{"q":"a"}' },
          { id: "toolu_b", name: "grab", json: '{"q":"b"}' },
        ],
      ),
    });
    const progress: ModelRoundProgress[] = [];
    const reply = await provider().round(roundRequest(MODEL, progress, { tools: [GRAB] }));
    expect(reply.text).toBe("Working.");
    expect(reply.toolCalls.map((c) => c.id)).toEqual(["toolu_a", "toolu_b"]);
    expect(reply.finishReason).toBe("tool_calls");
    expect(reply.usage).toEqual({ inputTokens: 120, outputTokens: 25, cachedInputTokens: 90 });
    expect(progress.filter((p) => p.type === "output").length).toBeGreaterThan(2);
  });

  it("retries an overloaded (529) reply and succeeds", async () => {
    server.answer(
      { status: 529, json: anthropicError("overloaded_error", "Overloaded") },
      { sse: messageStream(["ok"]) },
    );
    const progress: ModelRoundProgress[] = [];
    expect((await provider().round(roundRequest(MODEL, progress))).text).toBe("ok");
    expect(progress[0]).toMatchObject({ type: "retry", reason: "overloaded (529)" });
  });

  it("maps prompt is too long to context_exhausted", async () => {
    server.answer({
      status: 400,
      json: anthropicError(
        "invalid_request_error",
        "prompt is too long: 210000 tokens > 200000 maximum",
      ),
    });
    const failure = await failureOf(provider().round(roundRequest(MODEL)));
    expect(failure.kind).toBe("context_exhausted");
    expect(failure.message).toBe(
      "anthropic: the request does not fit anthropic:claude-sonnet-4-5: prompt is too long: 210000 tokens > 200000 maximum",
    );
  });

  it("maps a permission refusal to a message naming the key setting", async () => {
    server.answer({
      status: 403,
      json: anthropicError("permission_error", "Your API key does not have permission"),
    });
    const failure = await failureOf(provider().round(roundRequest(MODEL)));
    expect(failure.message).toBe(
      "anthropic: the API key may not use claude-sonnet-4-5 (403 Forbidden); check the key's permissions, or set the environment variable ANTHROPIC_API_KEY to another key",
    );
  });

  it("says which model id the server rejects", async () => {
    server.answer({ status: 404, json: anthropicError("not_found_error", "model: claude-nope") });
    const failure = await failureOf(provider().round(roundRequest(MODEL)));
    expect(failure.message).toMatch(
      /^anthropic: the server does not know the model "claude-sonnet-4-5" \(404\)/,
    );
  });
});
