import { isJsonObject, ModelFailure, type ModelRoundRequest } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import type { ScenarioModels } from "./scenario-types";
import { SCRIPTED_FAILURE_KINDS, ScriptedModelProvider } from "./scripted-model-provider";

function request(overrides: Partial<ModelRoundRequest> = {}): ModelRoundRequest {
  return {
    model: "scripted-model",
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    settings: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

function provider(replies: ScenarioModels["replies"], bind: Record<string, string> = {}) {
  return new ScriptedModelProvider({ bind, replies });
}

describe("ScriptedModelProvider", () => {
  it("serves scripted-model and every bound catalog id once", () => {
    const p = provider([], { writer: "claude-sonnet-4-6", critic: "claude-sonnet-4-6", a: "m-2" });
    expect(p.models.map((model) => model.id)).toEqual([
      "scripted-model",
      "claude-sonnet-4-6",
      "m-2",
    ]);
    expect(p.models[0]).toEqual({
      id: "scripted-model",
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      tools: true,
    });
    expect([p.name, p.specificationVersion]).toEqual(["scripted", 1]);
  });

  it("answers a text reply with finish reason stop and no tool calls", async () => {
    const p = provider([{ kind: "message", text: "final answer", toolCalls: [] }]);
    expect(await p.round(request())).toEqual({
      text: "final answer",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("answers tool calls with their text and finish reason tool_calls", async () => {
    const p = provider([
      {
        kind: "message",
        text: "looking",
        toolCalls: [
          { id: "call_1", name: "web_search", arguments: { query: "lua" } },
          { id: "call_2", name: "web_fetch", arguments: "not an object" },
        ],
      },
    ]);
    expect(await p.round(request())).toEqual({
      text: "looking",
      toolCalls: [
        { id: "call_1", name: "web_search", arguments: { query: "lua" } },
        { id: "call_2", name: "web_fetch", arguments: "not an object" },
      ],
      finishReason: "tool_calls",
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("answers an empty reply with its finish reason, or an empty one when none is given", async () => {
    const p = provider([{ kind: "empty", finishReason: "length" }, { kind: "empty" }]);
    expect(await p.round(request())).toEqual({
      text: "",
      toolCalls: [],
      finishReason: "length",
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect((await p.round(request())).finishReason).toBe("");
  });

  it("rejects a fail reply with a ModelFailure carrying kind, message and reason", async () => {
    const p = provider([
      {
        kind: "fail",
        failure: {
          kind: "context_exhausted",
          reason: "provider",
          message: "context window exceeded",
        },
      },
      { kind: "fail", failure: { kind: "internal", message: "model is down" } },
    ]);
    const first = await p.round(request()).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ModelFailure);
    expect(ModelFailure.isInstance(first)).toBe(true);
    const failure = first as ModelFailure;
    expect([failure.kind, failure.message, failure.fields]).toEqual([
      "context_exhausted",
      "context window exceeded",
      { reason: "provider" },
    ]);
    const second = (await p.round(request()).catch((error: unknown) => error)) as ModelFailure;
    expect([second.kind, second.message, second.fields]).toEqual(["internal", "model is down", {}]);
    expect(p.ranOut).toBeUndefined();
  });

  it("answers with the scripted usage, zero tokens where none is given", async () => {
    const p = provider([
      { kind: "message", text: "a", toolCalls: [], usage: { input: 120, output: 7 } },
      { kind: "empty", finishReason: "length", usage: { input: 5, output: 32_000 } },
    ]);
    expect((await p.round(request())).usage).toEqual({ inputTokens: 120, outputTokens: 7 });
    expect((await p.round(request())).usage).toEqual({ inputTokens: 5, outputTokens: 32_000 });
  });

  it("serves the ids of models.catalog with their facts over the defaults", () => {
    const p = new ScriptedModelProvider({
      bind: { writer: "small" },
      catalog: { small: { contextWindow: 500, maxOutputTokens: 100 }, plain: { tools: false } },
      replies: [],
    });
    expect(p.models).toEqual([
      { id: "scripted-model", contextWindow: 200_000, maxOutputTokens: 32_000, tools: true },
      { id: "small", contextWindow: 500, maxOutputTokens: 100, tools: true },
      { id: "plain", contextWindow: 200_000, maxOutputTokens: 32_000, tools: false },
    ]);
    expect(SCRIPTED_FAILURE_KINDS).toEqual(["context_exhausted", "internal"]);
  });

  it("consumes replies in order whatever the model and rejects once they run out", async () => {
    const p = provider([
      { kind: "message", text: "one", toolCalls: [] },
      { kind: "message", text: "two", toolCalls: [] },
    ]);
    expect((await p.round(request({ model: "a" }))).text).toBe("one");
    expect(p.remaining).toBe(1);
    expect((await p.round(request({ model: "b" }))).text).toBe("two");
    await expect(p.round(request())).rejects.toThrow(
      "the scenario scripts no model reply for round 3",
    );
    await expect(p.round(request())).rejects.toThrow(
      "the scenario scripts no model reply for round 4",
    );
    expect(p.ranOut).toBe("the scenario scripts no model reply for round 3");
    expect([p.roundCount, p.remaining]).toEqual([4, 0]);
  });

  it("records every request: wire names, message count and tool definitions", async () => {
    const p = provider([{ kind: "message", text: "x", toolCalls: [] }]);
    const parameters = { type: "object", properties: { url: { type: "string" } } };
    await p.round(
      request({
        messages: [
          { role: "system", content: "s" },
          { role: "user", content: "u" },
          { role: "assistant", content: "a" },
        ],
        tools: [
          { name: "web_fetch", description: "Fetch.", parameters },
          { name: "grab", description: "Grab a value", parameters: { type: "object" } },
        ],
      }),
    );
    await p.round(request()).catch(() => undefined);
    expect(p.requests).toEqual([
      {
        tools: ["web_fetch", "grab"],
        messages: 3,
        toolDefinitions: [
          { name: "web_fetch", description: "Fetch.", parameters },
          { name: "grab", description: "Grab a value", parameters: { type: "object" } },
        ],
      },
      { tools: [], messages: 1, toolDefinitions: [] },
    ]);
    expect(isJsonObject(p.requests[0]?.toolDefinitions[0]?.parameters)).toBe(true);
  });

  it("rejects a round whose signal is already aborted without using a reply", async () => {
    const p = provider([{ kind: "message", text: "kept", toolCalls: [] }]);
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    await expect(p.round(request({ signal: controller.signal }))).rejects.toThrow("cancelled");
    expect([p.roundCount, p.requests.length, p.ranOut]).toEqual([0, 0, undefined]);
    expect((await p.round(request())).text).toBe("kept");
  });
});
