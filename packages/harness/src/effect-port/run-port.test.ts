import { readFileSync } from "node:fs";
import { join } from "node:path";
import type {
  ModelRoundEffectRequest,
  RunEvent,
  StoreOperation,
  StoreRequest,
} from "@runvil/protocol";
import { type JsonObject, ModelFailure, StoreError, ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { EventRecorder } from "../events/event-recorder";
import { JsonLinesEventSink } from "../events/json-lines-event-sink";
import { MemoryEventSink } from "../events/memory-event-sink";
import { ModelDispatcher } from "../models/model-dispatcher";
import { MemoryStore } from "../store/memory-store";
import { tempDirectory } from "../test-support/temp-directory";
import { rejectionOf, servicesOf, toolRequest } from "../tools/test-support";
import { ToolDispatcher } from "../tools/tool-dispatcher";
import { RunPort } from "./run-port";

const ORIGIN = { execution: "run-1", chain: "0", entry: "0.1", section: "Main", task: "t" };

function request<O extends StoreOperation>(operation: O, n: number): StoreRequest<O> {
  return { operation, origin: ORIGIN, effect: `0.1/${n}`, signal: new AbortController().signal };
}

function modelRequest(model: string): ModelRoundEffectRequest {
  return {
    role: "writer",
    model,
    via: "infer",
    turn: 1,
    messages: [{ role: "user", content: "ping" }],
    tools: [],
    settings: {},
    origin: ORIGIN,
    effect: "0.1/1",
    signal: new AbortController().signal,
    stopSignal: new AbortController().signal,
  };
}

function event(seq: number): RunEvent {
  return {
    seq,
    execution: "run-1",
    chain: "0",
    entry: "0.1",
    section: "Main",
    type: "section_entered",
    via: "walk",
  };
}

describe("RunPort", () => {
  it("performs store operations on its store and counts them", async () => {
    const store = new MemoryStore({ files: { "a.txt": "hello" } });
    const port = new RunPort(store);
    expect(await port.storeOp(request({ op: "read", path: "a.txt" }, 1))).toBe("hello");
    await port.storeOp(request({ op: "append", path: "a.txt", text: ", world" }, 2));
    expect(await port.storeOp(request({ op: "exists", path: "b.txt" }, 3))).toBe(false);
    expect(await port.storeOp(request({ op: "list" }, 4))).toEqual(["a.txt"]);
    expect(await store.read("a.txt")).toBe("hello, world");
    expect(port.storeOpCount).toBe(4);
    expect(port.store).toBe(store);
  });

  it("passes the store's own failures through as StoreErrors", async () => {
    const port = new RunPort(new MemoryStore());
    const failure = await port.storeOp(request({ op: "read", path: "missing.txt" }, 1)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(StoreError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ reason: "not_found" });
  });

  it("lets the event loop turn before a store operation when asked", async () => {
    for (const yieldToEventLoop of [false, true]) {
      const port = new RunPort(new MemoryStore(), { yieldToEventLoop });
      let turned = false;
      setImmediate(() => {
        turned = true;
      });
      await port.storeOp(request({ op: "exists", path: "a.txt" }, 1));
      expect(turned).toBe(yieldToEventLoop);
    }
  });

  it("forwards every event to the callback and the recorder, in order", async () => {
    const seen: number[] = [];
    const sink = new MemoryEventSink<RunEvent>();
    const port = new RunPort(new MemoryStore(), {
      onEvent: (e) => seen.push(e.seq),
      recorder: new EventRecorder(sink),
    });
    port.emit(event(1));
    port.emit(event(2));
    expect(seen).toEqual([1, 2]);
    expect(sink.records.map((r) => [r.seq, r.event.seq])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(port.eventCount).toBe(2);
    expect(port.recordingError).toBeUndefined();
  });

  it("writes events to a JSON Lines file through the recorder", async () => {
    const file = join(tempDirectory(), "events.jsonl");
    const recorder = new EventRecorder(new JsonLinesEventSink<RunEvent>(file));
    const port = new RunPort(new MemoryStore(), { recorder });
    port.emit(event(1));
    await recorder.close();
    expect(readFileSync(file, "utf8")).toBe(
      '{"seq":1,"event":{"seq":1,"execution":"run-1","chain":"0","entry":"0.1","section":"Main","type":"section_entered","via":"walk"}}\n',
    );
  });

  it("keeps the recorder's failure and goes on emitting to the callback", async () => {
    const recorder = new EventRecorder(new MemoryEventSink<RunEvent>());
    await recorder.close();
    const seen: number[] = [];
    const port = new RunPort(new MemoryStore(), { onEvent: (e) => seen.push(e.seq), recorder });
    port.emit(event(1));
    port.emit(event(2));
    expect(seen).toEqual([1, 2]);
    expect(port.recordingError).toEqual(new Error("the event recorder is closed"));
  });

  it("runs catalog tool calls on its dispatcher and counts them, failures included", async () => {
    const store = new MemoryStore();
    const tools = new ToolDispatcher({
      tools: new Map([
        [
          "kit/echo",
          {
            id: "kit/echo",
            description: "Echoes.",
            parameters: { type: "object", required: ["text"] },
            trust: "trusted" as const,
            run: (args: JsonObject) => String(args.text),
          },
        ],
      ]),
      services: servicesOf(),
      store,
    });
    const port = new RunPort(store, { tools, yieldToEventLoop: true });
    expect(port.toolCallCount).toBe(0);
    expect(await port.toolCall(toolRequest("kit/echo", { text: "hi" }))).toEqual({
      text: "hi",
      trusted: true,
    });
    const failure = await rejectionOf(port.toolCall(toolRequest("kit/echo", {})));
    expect(ToolFailure.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toBe("kit_echo: missing text argument");
    expect(port.toolCallCount).toBe(2);
  });

  it("rejects tool calls with a plain Error when it has no dispatcher", async () => {
    const port = new RunPort(new MemoryStore());
    const error = await rejectionOf(port.toolCall(toolRequest("web/fetch", {})));
    expect(ToolFailure.isInstance(error)).toBe(false);
    expect((error as Error).message).toBe(
      "cannot call web/fetch: this RunPort was created without a tool dispatcher",
    );
    expect(port.toolCallCount).toBe(1);
  });

  it("runs model rounds on its model dispatcher and counts them, failures included", async () => {
    const reply = {
      text: "pong",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    const models = new ModelDispatcher({
      providers: new Map([
        [
          "m-1",
          {
            specificationVersion: 1 as const,
            name: "acme",
            models: [{ id: "m-1", contextWindow: 100, maxOutputTokens: 10, tools: true }],
            round: async () => reply,
          },
        ],
      ]),
    });
    const port = new RunPort(new MemoryStore(), { models, yieldToEventLoop: true });
    const round = modelRequest("m-1");
    expect(await port.modelRound(round)).toEqual(reply);
    const failure = await rejectionOf(port.modelRound({ ...round, model: "m-2" }));
    expect(ModelFailure.isInstance(failure)).toBe(true);
    expect(port.modelRoundCount).toBe(2);
  });

  it("fails every model round internal when it has no model dispatcher", async () => {
    const port = new RunPort(new MemoryStore());
    const failure = await rejectionOf(port.modelRound(modelRequest("m-1")));
    expect(failure).toBeInstanceOf(ModelFailure);
    expect([(failure as ModelFailure).kind, (failure as ModelFailure).message]).toEqual([
      "internal",
      "the run has no model port",
    ]);
    expect(port.modelRoundCount).toBe(1);
  });
});
