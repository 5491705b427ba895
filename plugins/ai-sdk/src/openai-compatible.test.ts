import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelRoundProgress } from "@runvil/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AiSdkProviderOptions, createAiSdkProvider } from "./ai-sdk-provider";
import {
  chatCompletion,
  chatTextStream,
  chatToolCall,
  chatToolStream,
} from "./test-support/openai-chat-wire";
import { FAST_RETRY, failureOf, roundRequest } from "./test-support/round";
import { data, WireServer } from "./test-support/wire-server";

let server: WireServer;

beforeEach(async () => {
  server = await new WireServer().start();
});
afterEach(async () => {
  await server.close();
});

const MODEL = "local:qwen3";

function provider(overrides: Partial<AiSdkProviderOptions> = {}) {
  const local = createOpenAICompatible({ name: "local", baseURL: `${server.url}/v1` });
  return createAiSdkProvider({
    name: "local",
    models: [
      { id: MODEL, apiId: "qwen3", contextWindow: 32_768, maxOutputTokens: 4096, tools: true },
    ],
    languageModel: (id) => local.chatModel(id),
    retry: FAST_RETRY,
    ...overrides,
  });
}

function manyCalls(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i}`,
    name: "grab",
    args: `{"q":"${i}"}`,
  }));
}

describe("an OpenAI-compatible server", () => {
  it("streams a text reply with usage and no key", async () => {
    server.answer({ sse: chatTextStream(["Local ", "model."]) });
    const reply = await provider().round(roundRequest(MODEL));
    expect(reply.text).toBe("Local model.");
    expect(reply.usage.cachedInputTokens).toBe(64);
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("retries a stream cut mid-way and succeeds on the next attempt", async () => {
    server.answer(
      { sse: chatTextStream(["never ", "finished"]).slice(0, 2), cut: true },
      { sse: chatTextStream(["whole"]) },
    );
    const progress: ModelRoundProgress[] = [];
    const reply = await provider().round(roundRequest(MODEL, progress));
    expect(reply.text).toBe("whole");
    const retry = progress.find((p) => p.type === "retry");
    expect(retry).toMatchObject({ attempt: 1 });
    expect(retry?.type === "retry" ? retry.reason : "").toMatch(/^the reply stream/);
    expect(progress.at(-1)).toMatchObject({ type: "output", attempt: 2 });
  });

  it("fails clearly when every attempt's stream is cut", async () => {
    server.answer({ sse: chatTextStream(["never"]).slice(0, 2), cut: true });
    const failure = await failureOf(
      provider({ retry: { ...FAST_RETRY, maxRetries: 1 } }).round(roundRequest(MODEL)),
    );
    expect(failure.kind).toBe("internal");
    expect(failure.message).toMatch(
      /^local: the reply stream .* on local:qwen3; gave up after 2 attempts$/,
    );
  });

  it("stops a hung connection as soon as the run cancels the round", async () => {
    server.answer({ hang: true });
    const controller = new AbortController();
    const round = provider().round(roundRequest(MODEL, [], { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("run cancelled")), 50);
    await expect(round).rejects.toThrow("run cancelled");
  });

  it("times out a server that never answers, retrying, then names the provider", async () => {
    server.answer({ hang: true });
    const failure = await failureOf(
      provider({ requestTimeoutMs: 50, retry: { ...FAST_RETRY, maxRetries: 1 } }).round(
        roundRequest(MODEL),
      ),
    );
    expect(failure.message).toBe(
      "local: no response within 0.05 s on local:qwen3; gave up after 2 attempts",
    );
  });

  it("stops a stream that goes silent past the idle timeout", async () => {
    server.answer({ sse: chatTextStream(["half"]).slice(0, 2), stall: true });
    const failure = await failureOf(
      provider({ idleTimeoutMs: 50, retry: { ...FAST_RETRY, maxRetries: 0 } }).round(
        roundRequest(MODEL),
      ),
    );
    expect(failure.message).toBe(
      "local: the reply stream sent nothing for 0.05 s on local:qwen3; gave up after 1 attempt",
    );
  });

  it("stops an endless stream of text at the reply limit", async () => {
    const piece = "x".repeat(65_536);
    server.answer({
      sse: chatTextStream([]).slice(0, 1),
      endless: data({
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "qwen3",
        choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
      }),
    });
    const failure = await failureOf(provider().round(roundRequest(MODEL)));
    expect(failure.message).toBe("local: local:qwen3: the reply is over the 8388608-byte limit");
  });

  it("stops an endless stream of keep-alive comments at the idle timeout", async () => {
    server.answer({ sse: [], endless: ": ping\n\n" });
    const failure = await failureOf(
      provider({ idleTimeoutMs: 50, retry: { ...FAST_RETRY, maxRetries: 0 } }).round(
        roundRequest(MODEL),
      ),
    );
    expect(failure.message).toBe(
      "local: the reply stream sent nothing for 0.05 s on local:qwen3; gave up after 1 attempt",
    );
  });

  it("refuses a streamed reply of 10,000 tool calls at the 257th", async () => {
    server.answer({ sse: chatToolStream(manyCalls(10_000)) });
    const failure = await failureOf(provider().round(roundRequest(MODEL)));
    expect(failure.message).toBe(
      "local: local:qwen3: the reply has 257 tool calls, over the limit of 256",
    );
  });

  it("refuses a JSON reply of 10,000 tool calls, counting them all", async () => {
    server.answer({
      json: chatCompletion(
        {
          content: null,
          tool_calls: manyCalls(10_000).map((c) => chatToolCall(c.id, c.name, c.args)),
        },
        "tool_calls",
      ),
    });
    const failure = await failureOf(provider({ stream: false }).round(roundRequest(MODEL)));
    expect(failure.message).toBe(
      "local: local:qwen3: the reply has 10000 tool calls, over the limit of 256",
    );
  });

  it("refuses a stream of malformed JSON events as an invalid reply", async () => {
    server.answer({ sse: [data("{not json"), data("[DONE]")] });
    const failure = await failureOf(
      provider({ retry: { ...FAST_RETRY, maxRetries: 0 } }).round(roundRequest(MODEL)),
    );
    expect(failure.message).toBe(
      "local: the reply of local:qwen3 is not valid (malformed JSON or an unexpected shape)",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("names a module that gives no V3 model", async () => {
    const failure = await failureOf(
      provider({ languageModel: () => ({ specificationVersion: "v2" }) }).round(
        roundRequest(MODEL),
      ),
    );
    expect(failure.message).toBe(
      "local: model qwen3: it implements the AI SDK provider specification v2 (an @ai-sdk/* 2.x package); this plugin adapts v3: install the package's 3.x line",
    );
  });
});
