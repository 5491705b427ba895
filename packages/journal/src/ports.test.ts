import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type EffectOrigin,
  type EffectPort,
  formatEventLine,
  type ModelRoundEffectRequest,
  NO_RUN_USAGE,
  type RunEvent,
  type RunResult,
  type StoreRequest,
  type ToolCallRequest,
} from "@runvil/protocol";
import { StoreError, ToolFailure } from "@runvil/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { Journal } from "./journal";
import { createJournalPort } from "./journal-port";
import { createReplayPort } from "./replay-port";
import { openSqliteJournal } from "./sqlite/sqlite-journal";
import { contractInputs } from "./testing/journal-contract";

const origin = (entry: string, chain = "0"): EffectOrigin => ({
  execution: "t",
  chain,
  entry,
  section: "Work",
  task: "0",
});
const signal = new AbortController().signal;

function storeRequest(effect: string, path: string, contents: string): StoreRequest {
  return { operation: { op: "write", path, contents }, origin: origin("0.1"), effect, signal };
}

function toolRequest(effect: string, url: string): ToolCallRequest {
  return {
    tool: "web/fetch",
    name: "fetch",
    arguments: { url },
    caller: "script",
    callId: "",
    origin: origin("0.1"),
    effect,
    signal,
  };
}

function event(
  seq: number,
  type: RunEvent["type"],
  fields: Record<string, unknown> = {},
): RunEvent {
  return {
    seq,
    type,
    execution: "t",
    chain: "0",
    entry: "0.1",
    section: "Work",
    ...fields,
  } as RunEvent;
}

const usage = NO_RUN_USAGE;
const succeeded: RunResult = { outcome: "succeeded", result: "ok", var: {}, events: 3, usage };

/** A live port: writes succeed, a read fails not_found, fetch answers its url. */
function livePort(emitted: RunEvent[] = []): EffectPort & { calls: number } {
  const port = {
    calls: 0,
    async storeOp(request: StoreRequest) {
      port.calls += 1;
      if (request.operation.op === "read") {
        throw new StoreError({ reason: "not_found", path: "x", message: "x: not found" });
      }
      return undefined;
    },
    async toolCall(request: ToolCallRequest) {
      port.calls += 1;
      if (request.arguments.url === "bad") throw new ToolFailure("fetch: bad url");
      return { text: `page of ${String(request.arguments.url)}`, trusted: false };
    },
    async modelRound(_request: ModelRoundEffectRequest) {
      port.calls += 1;
      return {
        text: "hi",
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 10, outputTokens: 2 },
      };
    },
    emit(e: RunEvent) {
      emitted.push(e);
    },
  };
  return port as EffectPort & { calls: number };
}

const folders: string[] = [];
const journals: Journal[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function journal(): Journal {
  const folder = mkdtempSync(join(tmpdir(), "runvil-journal-ports-"));
  folders.push(folder);
  const opened = openSqliteJournal(join(folder, "runs.db"));
  journals.push(opened);
  return opened;
}

/** The `tool_call_started` event of a script's fetch (the Engine reports every call so). */
function fetchStarted(seq: number, url: string): RunEvent {
  return event(seq, "tool_call_started", {
    turn: 0,
    tool_call_id: "",
    alias: "fetch",
    tool: "web/fetch",
    caller: "script",
    arguments: { url },
  });
}

/**
 * Records a small run: two events, a write, a failing read, a fetch, a failing fetch (each
 * after its tool_call_started event), an event.
 */
async function recordRun(into: Journal): Promise<string> {
  const recorder = await into.startRun(contractInputs(1_800_000_000_000));
  const emitted: RunEvent[] = [];
  const port = createJournalPort(livePort(emitted), recorder);
  port.effects.emit(event(1, "run_started"));
  port.effects.emit(event(2, "chunk_started", { block: "notes.md:12" }));
  await port.effects.storeOp(storeRequest("0.1/1", "a.md", "A"));
  await expect(
    port.effects.storeOp({
      operation: { op: "read", path: "x" },
      origin: origin("0.1"),
      effect: "0.1/2",
      signal,
    }),
  ).rejects.toThrow("x: not found");
  port.effects.emit(fetchStarted(3, "https://example.test/"));
  await port.effects.toolCall?.(toolRequest("0.1/3", "https://example.test/"));
  port.effects.emit(fetchStarted(4, "bad"));
  await expect(port.effects.toolCall?.(toolRequest("0.1/4", "bad"))).rejects.toThrow(
    "fetch: bad url",
  );
  port.effects.emit(event(5, "run_finished", { outcome: "succeeded" }));
  await port.finish(succeeded, 1_800_000_001_000);
  expect(emitted.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  expect(port.recordingError).toBeUndefined();
  expect(port.counts()).toMatchObject({ effects: 4, toolCalls: 2, events: 5 });
  return recorder.runId;
}

describe("the journal port", () => {
  it("records each effect with its request, its answer or failure and its order, and every event", async () => {
    const opened = journal();
    const runId = await recordRun(opened);
    const effects = await opened.readEffects(runId);
    expect(effects.map((e) => [e.effect, e.kind, e.issued, e.arrival])).toEqual([
      ["0.1/1", "store", 1, 1],
      ["0.1/2", "store", 2, 2],
      ["0.1/3", "tool", 3, 3],
      ["0.1/4", "tool", 4, 4],
    ]);
    expect(effects[0]?.request).toBe('{"contents":"A","op":"write","path":"a.md"}');
    expect(effects[1]?.failure).toEqual({
      type: "store",
      reason: "not_found",
      path: "x",
      message: "x: not found",
    });
    expect(effects[2]?.output).toBe('{"text":"page of https://example.test/","trusted":false}');
    expect(effects[3]?.failure).toEqual({ type: "tool", message: "fetch: bad url" });
    expect((await opened.readEvents(runId)).map((e) => e.type)).toEqual([
      "run_started",
      "chunk_started",
      "tool_call_started",
      "tool_call_started",
      "run_finished",
    ]);
    expect(await opened.findRun(runId)).toMatchObject({
      outcome: "succeeded",
      toolCalls: 2,
      effects: 4,
    });
  });

  it("keeps the inner port's optional methods optional", async () => {
    const recorder = await journal().startRun(contractInputs(1_800_000_000_000));
    const inner: EffectPort = { storeOp: async () => undefined as never, emit: () => {} };
    const port = createJournalPort(inner, recorder);
    expect(port.effects.toolCall).toBeUndefined();
    expect(port.effects.modelRound).toBeUndefined();
  });

  it("passes observations to the inner port, and leaves recall out when it has none", async () => {
    const recorder = await journal().startRun(contractInputs(1_800_000_000_000));
    const inner: EffectPort = {
      storeOp: async () => undefined as never,
      recall: (request) => `inner answers ${request.effect}`,
      emit: () => {},
    };
    const port = createJournalPort(inner, recorder);
    expect(port.effects.recall?.({ via: "join_any", effect: "0.1/1", origin: origin("0.1") })).toBe(
      "inner answers 0.1/1",
    );
    const bare = createJournalPort(livePort(), await journal().startRun(contractInputs(1)));
    expect(bare.effects.recall).toBeUndefined();
  });

  it("stops recording at a journal failure and lets the run go on", async () => {
    const opened = journal();
    const recorder = await opened.startRun(contractInputs(1_800_000_000_000));
    const port = createJournalPort(livePort(), recorder);
    await opened.close(); // every later write fails
    await port.effects.storeOp(storeRequest("0.1/1", "a.md", "A"));
    await new Promise((resolve) => setTimeout(resolve, 30)); // the group commit fails
    await port.effects.storeOp(storeRequest("0.1/2", "b.md", "B"));
    expect(port.recordingError).toBeDefined();
    await port.effects.toolCall?.(toolRequest("0.1/3", "https://example.test/"));
  });

  it("writes store effects in group commits, and a tool call durably with all before it", async () => {
    const opened = journal();
    const recorder = await opened.startRun(contractInputs(1_800_000_000_000));
    const port = createJournalPort(livePort(), recorder);
    await port.effects.storeOp(storeRequest("0.1/1", "a.md", "A"));
    await port.effects.storeOp(storeRequest("0.1/2", "b.md", "B"));
    expect(await opened.readEffects(recorder.runId)).toEqual([]);
    await port.effects.toolCall?.(toolRequest("0.1/3", "https://example.test/"));
    expect((await opened.readEffects(recorder.runId)).map((e) => e.effect)).toEqual([
      "0.1/1",
      "0.1/2",
      "0.1/3",
    ]);
    await port.effects.storeOp(storeRequest("0.1/4", "c.md", "C"));
    await new Promise((resolve) => setTimeout(resolve, 30)); // the group commit's timer
    expect(await opened.readEffects(recorder.runId)).toHaveLength(4);
  });
});

describe("the replay port", () => {
  it("answers every effect from the journal, failures included, and calls nothing live", async () => {
    const opened = journal();
    const runId = await recordRun(opened);
    const replay = createReplayPort(
      await opened.readEffects(runId),
      await opened.readEvents(runId),
    );
    const port = replay.effects;
    port.emit(event(1, "run_started"));
    port.emit(event(2, "chunk_started", { block: "notes.md:12" }));
    expect(await port.storeOp(storeRequest("0.1/1", "a.md", "A"))).toBeUndefined();
    const failure = await port
      .storeOp({
        operation: { op: "read", path: "x" },
        origin: origin("0.1"),
        effect: "0.1/2",
        signal,
      })
      .catch((e: unknown) => e);
    expect(StoreError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ reason: "not_found", path: "x", message: "x: not found" });
    port.emit(fetchStarted(3, "https://example.test/"));
    expect(await port.toolCall?.(toolRequest("0.1/3", "https://example.test/"))).toEqual({
      text: "page of https://example.test/",
      trusted: false,
    });
    port.emit(fetchStarted(4, "bad"));
    const toolFailure = await port.toolCall?.(toolRequest("0.1/4", "bad")).catch((e: unknown) => e);
    expect(ToolFailure.isInstance(toolFailure)).toBe(true);
    port.emit(event(5, "run_finished", { outcome: "succeeded" }));
    expect(replay.answered).toBe(4);
    expect(replay.conclude()).toEqual({ events: "identical", divergence: undefined });
  });

  it("recalls join_any's and task_status's recorded answers by effect id and kind", () => {
    const recorded = [
      { via: "join_any", answer: "0.1", effect: "0.1/2" },
      { via: "task_status", answer: "Task id=0.0 running: ## W", effect: "0.1/3" },
    ].map((fields, i) => {
      const e = event(i + 1, "task_observed", fields);
      return { seq: e.seq, type: e.type, chain: e.chain, line: formatEventLine(e) };
    });
    const port = createReplayPort([], recorded).effects;
    const ask = (via: "join_any" | "task_status", effect: string) =>
      port.recall?.({ via, effect, origin: origin("0.1") });
    expect(ask("join_any", "0.1/2")).toBe("0.1");
    expect(ask("task_status", "0.1/3")).toBe("Task id=0.0 running: ## W");
    // Another kind, or an effect id the record never observed: the Engine observes live.
    expect(ask("task_status", "0.1/2")).toBeUndefined();
    expect(ask("join_any", "0.1/9")).toBeUndefined();
  });

  it("reports a changed request with the recorded and the new one, its section and block", async () => {
    const opened = journal();
    const runId = await recordRun(opened);
    const seen: unknown[] = [];
    const replay = createReplayPort(
      await opened.readEffects(runId),
      await opened.readEvents(runId),
      {
        onDivergence: (d) => seen.push(d),
      },
    );
    replay.effects.emit(event(1, "run_started"));
    replay.effects.emit(event(2, "chunk_started", { block: "notes.md:12" }));
    await expect(replay.effects.storeOp(storeRequest("0.1/1", "a.md", "changed"))).rejects.toThrow(
      "the replay diverged from the recorded run at effect 0.1/1",
    );
    const expected = {
      kind: "changed_request",
      effect: "0.1/1",
      place: { section: "Work", entry: "0.1", chain: "0", block: "notes.md:12" },
      recorded: { kind: "store", request: '{"contents":"A","op":"write","path":"a.md"}' },
      replayed: { kind: "store", request: '{"contents":"changed","op":"write","path":"a.md"}' },
    };
    expect(seen).toEqual([expected]);
    expect(replay.conclude().divergence).toEqual(expected);
  });

  it("reports an effect id the recorded run never made, and one it made that the replay skipped", async () => {
    const opened = journal();
    const runId = await recordRun(opened);
    const effects = await opened.readEffects(runId);
    const events = await opened.readEvents(runId);
    const extra = createReplayPort(effects, events);
    await expect(extra.effects.storeOp(storeRequest("0.1/9", "z.md", "Z"))).rejects.toThrow();
    expect(extra.divergence).toMatchObject({ kind: "unrecorded_effect", effect: "0.1/9" });
    const fewer = createReplayPort(effects, events);
    await fewer.effects.storeOp(storeRequest("0.1/1", "a.md", "A"));
    expect(fewer.conclude().divergence).toMatchObject({
      kind: "missing_effect",
      effect: "0.1/2",
      recorded: { kind: "store", request: '{"op":"read","path":"x"}' },
    });
  });

  it("reports the first changed event of a chain, and accepts another interleaving of chains", async () => {
    const recorded = [event(1, "run_started"), event(2, "lua_checkpoint", { message: "a" })];
    const lines = recorded.map((e, i) => ({
      seq: i + 1,
      type: e.type,
      chain: e.chain,
      line: `${JSON.stringify(e)}\n`,
    }));
    const changed = createReplayPort([], lines);
    changed.effects.emit(event(1, "run_started"));
    changed.effects.emit(event(2, "lua_checkpoint", { message: "b" }));
    expect(changed.conclude()).toMatchObject({
      events: "different",
      divergence: {
        kind: "changed_event",
        index: 2,
        place: { section: "Work", chain: "0" },
        recorded: lines[1]?.line,
        replayed:
          '{"seq":2,"type":"lua_checkpoint","execution":"t","chain":"0","entry":"0.1","section":"Work","message":"b"}\n',
      },
    });
    const a = { ...event(1, "lua_checkpoint", { message: "a" }), chain: "0.1" } as RunEvent;
    const b = { ...event(2, "lua_checkpoint", { message: "b" }), chain: "0.2" } as RunEvent;
    const interleaved = createReplayPort(
      [],
      [a, b].map((e) => ({
        seq: e.seq,
        type: e.type,
        chain: e.chain,
        line: `${JSON.stringify(e)}\n`,
      })),
    );
    interleaved.effects.emit({ ...b, seq: 1 } as RunEvent);
    interleaved.effects.emit({ ...a, seq: 2 } as RunEvent);
    expect(interleaved.conclude()).toEqual({
      events: "identical_per_chain",
      divergence: undefined,
    });
  });

  it("hands results over in their recorded arrival order", async () => {
    const opened = journal();
    const recorder = await opened.startRun(contractInputs(1_800_000_000_000));
    // Recorded: 0.1/1 was asked first but answered second.
    await recorder.recordEffect({
      effect: "0.1/1",
      kind: "tool",
      origin: origin("0.1"),
      issued: 1,
      arrival: 2,
      eventsBefore: 0,
      startedUs: 0,
      durationUs: 5,
      request:
        '{"arguments":{"url":"1"},"callId":"","caller":"script","name":"fetch","tool":"web/fetch"}',
      output: '{"text":"one","trusted":true}',
    });
    await recorder.recordEffect({
      effect: "0.2/1",
      kind: "tool",
      origin: origin("0.2", "0.1"),
      issued: 2,
      arrival: 1,
      eventsBefore: 0,
      startedUs: 1,
      durationUs: 1,
      request:
        '{"arguments":{"url":"2"},"callId":"","caller":"script","name":"fetch","tool":"web/fetch"}',
      output: '{"text":"two","trusted":true}',
    });
    const replay = createReplayPort(await opened.readEffects(recorder.runId), [], {
      arrivalWaitMs: 10_000,
    });
    const order: string[] = [];
    const first = replay.effects
      .toolCall?.({ ...toolRequest("0.1/1", "1") })
      .then((o) => order.push(o.text));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    const second = replay.effects
      .toolCall?.({ ...toolRequest("0.2/1", "2"), origin: origin("0.2", "0.1") })
      .then((o) => order.push(o.text));
    await Promise.all([first, second]);
    expect(order).toEqual(["two", "one"]);
  });
});
