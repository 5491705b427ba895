import { describe, expect, it } from "vitest";
import { isJsonObject } from "./json";
import {
  MODEL_FAILURE_KINDS,
  MODEL_PROGRESS_TYPES,
  MODEL_SPECIFICATION_VERSION,
  ModelFailure,
  type ModelProvider,
  type ModelRoundProgress,
  type ModelRoundRequest,
} from "./model";
import { definePack } from "./pack";
import { definePlugin } from "./plugin";
import { defineTool } from "./tool";
import { ToolFailure } from "./tool-failure";

describe("ToolFailure", () => {
  it("carries a model-safe message and keeps the cause apart", () => {
    const failure = new ToolFailure("web_fetch: missing url argument", {
      cause: new Error("socket reset"),
    });
    expect(failure.message).toBe("web_fetch: missing url argument");
    expect(failure.name).toBe("ToolFailure");
    expect((failure.cause as Error).message).toBe("socket reset");
    expect(ToolFailure.isInstance(failure)).toBe(true);
  });

  it("is recognised across copies of the SDK by its brand, and nothing else is", () => {
    const fromAnotherCopy = Object.assign(new Error("x: failed"), {
      [Symbol.for("runvil.ToolFailure")]: true,
    });
    expect(ToolFailure.isInstance(fromAnotherCopy)).toBe(true);
    expect(ToolFailure.isInstance(new Error("x: failed"))).toBe(false);
    expect(ToolFailure.isInstance({ isToolFailure: true, message: "an old marker" })).toBe(false);
    const notTrue = { [Symbol.for("runvil.ToolFailure")]: "yes" };
    expect(ToolFailure.isInstance(notTrue)).toBe(false);
    expect(ToolFailure.isInstance(new ModelFailure("internal", "x"))).toBe(false);
    expect(ToolFailure.isInstance("x: failed")).toBe(false);
    expect(ToolFailure.isInstance(null)).toBe(false);
  });

  it("keeps its brand off the instance and hands it to subclasses", () => {
    class FetchFailure extends ToolFailure {}
    const failure = new FetchFailure("web_fetch: no page at x");
    expect(ToolFailure.isInstance(failure)).toBe(true);
    expect(Object.getOwnPropertySymbols(failure)).toEqual([]);
    expect({ ...failure }).toEqual({ name: "ToolFailure" });
  });
});

describe("ModelFailure", () => {
  it("names its kind and extra fields", () => {
    const failure = new ModelFailure("context_exhausted", "context window exceeded", {
      reason: "provider",
    });
    expect([failure.kind, failure.message, failure.fields]).toEqual([
      "context_exhausted",
      "context window exceeded",
      { reason: "provider" },
    ]);
    expect(new ModelFailure("internal", "model is down").fields).toEqual({});
  });

  it("keeps its cause apart from the model-safe message", () => {
    const failure = new ModelFailure("internal", "model is down", {}, { cause: "HTTP 503" });
    expect([failure.name, failure.message, failure.cause]).toEqual([
      "ModelFailure",
      "model is down",
      "HTTP 503",
    ]);
  });

  it("lists the kinds a provider may name", () => {
    expect(MODEL_FAILURE_KINDS).toEqual(["context_exhausted", "internal"]);
  });

  it("is recognised across copies of the SDK by its brand, and nothing else is", () => {
    expect(ModelFailure.isInstance(new ModelFailure("internal", "model is down"))).toBe(true);
    const fromAnotherCopy = Object.assign(new Error("no reply"), {
      [Symbol.for("runvil.ModelFailure")]: true,
    });
    expect(ModelFailure.isInstance(fromAnotherCopy)).toBe(true);
    expect(ModelFailure.isInstance(new ToolFailure("x: failed"))).toBe(false);
    expect(ModelFailure.isInstance(new Error("no reply"))).toBe(false);
    expect(ModelFailure.isInstance({ kind: "internal", message: "a look-alike" })).toBe(false);
    expect(ModelFailure.isInstance(undefined)).toBe(false);
  });

  it("keeps its brand off the instance and hands it to subclasses", () => {
    class RateLimited extends ModelFailure {}
    const failure = new RateLimited("internal", "rate limited");
    expect(ModelFailure.isInstance(failure)).toBe(true);
    expect(Object.getOwnPropertySymbols(failure)).toEqual([]);
  });
});

describe("ModelProvider", () => {
  it("speaks specification version 1 and registers catalog models with their facts", async () => {
    const provider: ModelProvider = {
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      name: "echo",
      models: [
        {
          id: "echo-1",
          contextWindow: 8192,
          maxOutputTokens: 1024,
          tools: false,
          prices: { inputPerMillion: 0.5, outputPerMillion: 1.5 },
        },
      ],
      round: async (request: ModelRoundRequest) => ({
        text: request.messages.map((message) => message.content).join("|"),
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 3, outputTokens: 1 },
      }),
    };
    expect(MODEL_SPECIFICATION_VERSION).toBe(1);
    const reply = await provider.round({
      model: "echo-1",
      system: "Be brief.",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "grab", arguments: {} }] },
        { role: "tool", content: "got", toolCallId: "c1", toolName: "grab" },
      ],
      tools: [],
      settings: { temperature: 0, stop: ["END"] },
      signal: new AbortController().signal,
    });
    expect(reply.text).toBe("hi||got");
  });

  it("may report progress to a Host that listens, within version 1", async () => {
    expect(MODEL_PROGRESS_TYPES).toEqual(["output", "retry"]);
    const seen: ModelRoundProgress[] = [];
    const provider: ModelProvider = {
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      name: "stream",
      models: [{ id: "stream-1", contextWindow: 100, maxOutputTokens: 10, tools: false }],
      round: async (request) => {
        request.onProgress?.({
          type: "retry",
          attempt: 1,
          delayMs: 5,
          reason: "rate limited (429)",
        });
        request.onProgress?.({ type: "output", outputTokens: 2, attempt: 2 });
        return {
          text: "ok",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 2 },
        };
      },
    };
    const request = {
      model: "stream-1",
      messages: [{ role: "user" as const, content: "hi" }],
      tools: [],
      settings: {},
      signal: new AbortController().signal,
    };
    expect((await provider.round(request)).text).toBe("ok");
    await provider.round({ ...request, onProgress: (progress) => seen.push(progress) });
    expect(seen.map((progress) => progress.type)).toEqual(["retry", "output"]);
  });
});

describe("isJsonObject", () => {
  it("accepts objects only", () => {
    expect(isJsonObject({ a: 1 })).toBe(true);
    expect([isJsonObject(null), isJsonObject([]), isJsonObject("{}")]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe("definePlugin, definePack, defineTool", () => {
  it("return their definitions unchanged", async () => {
    const tool = defineTool<{ text: string }>({
      id: "notes/add",
      description: "Adds a note.",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      trust: "trusted",
      run: (args) => `added ${args.text}`,
    });
    const pack = definePack({
      vendor: "acme",
      name: "notes",
      description: "Notes.",
      tools: [tool],
    });
    const added: unknown[] = [];
    const plugin = definePlugin({
      name: "acme-notes",
      setup(api) {
        api.addPack(pack);
      },
    });
    await plugin.setup(
      {
        addPack: (p) => added.push(p),
        provideService: () => undefined,
        addModelProvider: () => undefined,
      },
      undefined,
    );
    expect(added).toEqual([pack]);
    expect(pack.tools[0]).toBe(tool);
  });
});
