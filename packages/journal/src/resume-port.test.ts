import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type EffectOrigin,
  type EffectPort,
  NO_RUN_USAGE,
  type RunEvent,
  type RunResult,
  type StoreRequest,
  type ToolCallRequest,
} from "@runvil/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { createIntentPort } from "./intent-port";
import type { Journal } from "./journal";
import { createJournalPort } from "./journal-port";
import { createResumePort } from "./resume-port";
import { openSqliteJournal } from "./sqlite/sqlite-journal";
import { contractInputs } from "./testing/journal-contract";

const origin: EffectOrigin = {
  execution: "t",
  chain: "0",
  entry: "0.1",
  section: "Work",
  task: "0",
};
const signal = new AbortController().signal;

function write(effect: string, path: string, contents: string): StoreRequest {
  return { operation: { op: "write", path, contents }, origin, effect, signal };
}

function append(effect: string, path: string, text: string): StoreRequest {
  return { operation: { op: "append", path, text }, origin, effect, signal };
}

function fetch(effect: string, url: string): ToolCallRequest {
  return {
    tool: "web/fetch",
    name: "fetch",
    arguments: { url },
    caller: "script",
    callId: "",
    origin,
    effect,
    signal,
  };
}

function event(seq: number, type: RunEvent["type"], fields: Record<string, unknown> = {}) {
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
const succeeded: RunResult = { outcome: "succeeded", result: "ok", var: {}, events: 6, usage };

/** A live port counting what it performs; `hang` names effects that never answer. */
function livePort(hang: ReadonlySet<string> = new Set()) {
  const performed: string[] = [];
  const files = new Map<string, string>();
  const port: EffectPort = {
    async storeOp(request) {
      performed.push(request.effect);
      if (hang.has(request.effect)) return new Promise<never>(() => {});
      const op = request.operation;
      if (op.op === "write") files.set(String(op.path), String(op.contents));
      if (op.op === "append") {
        files.set(String(op.path), (files.get(String(op.path)) ?? "") + String(op.text));
      }
      return undefined as never;
    },
    async toolCall(request) {
      performed.push(request.effect);
      if (hang.has(request.effect)) return new Promise<never>(() => {});
      return { text: `page of ${String(request.arguments.url)}`, trusted: false };
    },
    emit() {},
  };
  return { port, performed, files };
}

/**
 * The program both runs perform: events, a write, a fetch, an append, a fetch, an event (each
 * fetch followed by its tool_call_started event, which the journal counts). Each step waits for
 * the one before, as one chain does.
 */
async function program(port: EffectPort, url = "https://example.test/b"): Promise<void> {
  port.emit(event(1, "run_started"));
  port.emit(event(2, "chunk_started", { block: "notes.md:3" }));
  await port.storeOp(write("0.1/1", "a.md", "A"));
  await port.toolCall?.(fetch("0.1/2", "https://example.test/a"));
  port.emit(event(3, "tool_call_started"));
  await port.storeOp(append("0.1/3", "log.md", "one\n"));
  port.emit(event(4, "chunk_succeeded"));
  await port.toolCall?.(fetch("0.1/4", url));
  port.emit(event(5, "tool_call_started"));
  await port.storeOp(append("0.1/5", "log.md", "two\n"));
  port.emit(event(6, "run_finished", { outcome: "succeeded" }));
}

const folders: string[] = [];
const journals: Journal[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function journal(): Journal {
  const folder = mkdtempSync(join(tmpdir(), "runvil-journal-resume-"));
  folders.push(folder);
  const opened = openSqliteJournal(join(folder, "runs.db"));
  journals.push(opened);
  return opened;
}

/** Runs the program until the effect `cut` (which never answers): a run killed there. */
async function cutShort(into: Journal, cut: string): Promise<string> {
  const recorder = await into.startRun(contractInputs(1_800_000_000_000));
  const live = livePort(new Set([cut]));
  const port = createJournalPort(live.port, recorder);
  void program(port.effects);
  await new Promise((resolve) => setTimeout(resolve, 30)); // the batch timer writes too
  return recorder.runId;
}

describe("the resume port", () => {
  it("answers the journaled effects, runs the rest live, and completes the same record", async () => {
    const opened = journal();
    const runId = await cutShort(opened, "0.1/4");
    const effects = await opened.readEffects(runId);
    expect(effects.map((e) => e.effect)).toEqual(["0.1/1", "0.1/2", "0.1/3"]);
    const events = await opened.readEvents(runId);
    const live = livePort();
    const port = createResumePort(opened, runId, live.port, effects, events, { idleMs: 20 });
    await program(port.effects);
    await port.finish(succeeded, 1_800_000_002_000);
    expect(port.divergence).toBeUndefined();
    expect(port.recordingError).toBeUndefined();
    // The journaled fetch did not run again; the one cut short ran once.
    expect(live.performed).toEqual(["0.1/4", "0.1/5"]);
    expect(port.answered).toBe(3);
    expect(port.live).toBe(2);
    const after = await opened.readEffects(runId);
    expect(after.map((e) => [e.effect, e.issued, e.arrival])).toEqual([
      ["0.1/1", 1, 1],
      ["0.1/2", 2, 2],
      ["0.1/3", 3, 3],
      ["0.1/4", 4, 4],
      ["0.1/5", 5, 5],
    ]);
    expect((await opened.readEvents(runId)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await opened.findRun(runId)).toMatchObject({
      outcome: "succeeded",
      effects: 5,
      toolCalls: 2,
      events: 6,
    });
    expect(await opened.resumeCount(runId)).toBe(1);
  });

  it("rebuilds an in-memory store from the journaled changes", async () => {
    const opened = journal();
    const runId = await cutShort(opened, "0.1/4");
    const live = livePort();
    const port = createResumePort(
      opened,
      runId,
      live.port,
      await opened.readEffects(runId),
      await opened.readEvents(runId),
      { reapplyStore: true, idleMs: 20 },
    );
    await program(port.effects);
    await port.finish(succeeded);
    expect(live.performed).toEqual(["0.1/1", "0.1/3", "0.1/4", "0.1/5"]);
    expect(live.files.get("log.md")).toBe("one\ntwo\n");
    expect(live.files.get("a.md")).toBe("A");
  });

  it("reports a changed request and leaves the record as it was", async () => {
    const opened = journal();
    const runId = await cutShort(opened, "0.1/5");
    const effects = await opened.readEffects(runId);
    const events = await opened.readEvents(runId);
    const live = livePort();
    const port = createResumePort(opened, runId, live.port, effects, events, { idleMs: 20 });
    await expect(program(port.effects, "https://example.test/changed")).rejects.toThrow(
      "diverged from the recorded run at effect 0.1/4",
    );
    await port.finish(succeeded);
    expect(port.divergence).toMatchObject({ kind: "changed_request", effect: "0.1/4" });
    expect(live.performed).toEqual([]);
    expect(await opened.readEffects(runId)).toEqual(effects);
    expect(await opened.readEvents(runId)).toEqual(events);
    expect(await opened.findRun(runId)).toMatchObject({ outcome: "running" });
    expect(await opened.resumeCount(runId)).toBe(0);
  });

  it("replaces the events a stop wrote, and runs the call the stop aborted again", async () => {
    const opened = journal();
    const recorder = await opened.startRun(contractInputs(1_800_000_000_000));
    const port = createJournalPort(livePort().port, recorder);
    port.effects.emit(event(1, "run_started"));
    port.effects.emit(event(2, "chunk_started", { block: "notes.md:3" }));
    await port.effects.storeOp(write("0.1/1", "a.md", "A"));
    const aborted = new Error("This operation was aborted");
    aborted.name = "AbortError";
    const stopped: EffectPort = {
      storeOp: () => Promise.reject(new Error("unused")),
      toolCall: () => Promise.reject(aborted),
      emit() {},
    };
    const stoppedPort = createJournalPort(stopped, recorder);
    await expect(
      stoppedPort.effects.toolCall?.(fetch("0.1/2", "https://example.test/a")),
    ).rejects.toBe(aborted);
    port.effects.emit(event(3, "chunk_failed", { reason: "cancelled" }));
    port.effects.emit(event(4, "run_finished", { outcome: "cancelled", stopped: true }));
    await port.finish({
      outcome: "cancelled",
      stopped: true,
      var: {},
      events: 4,
      usage,
    } as RunResult);
    const runId = recorder.runId;

    const live = livePort();
    const resumed = createResumePort(
      opened,
      runId,
      live.port,
      await opened.readEffects(runId),
      await opened.readEvents(runId),
      { idleMs: 20 },
    );
    await program(resumed.effects);
    await resumed.finish(succeeded);
    expect(resumed.recordingError).toBeUndefined();
    expect(live.performed).toEqual(["0.1/2", "0.1/3", "0.1/4", "0.1/5"]);
    expect((await opened.readEvents(runId)).map((e) => e.type)).toEqual([
      "run_started",
      "chunk_started",
      "tool_call_started",
      "chunk_succeeded",
      "tool_call_started",
      "run_finished",
    ]);
    expect(await opened.findRun(runId)).toMatchObject({
      outcome: "succeeded",
      effects: 5,
      toolCalls: 2,
    });
  });

  it("refuses a run that ended and changes nothing", async () => {
    const opened = journal();
    const runId = await cutShort(opened, "0.1/9");
    const recorder = await opened.resumeRun(runId);
    await recorder.finish({
      outcome: "succeeded",
      endedAt: 1_800_000_000_500,
      result: "{}",
      counts: {
        effects: 5,
        modelRounds: 0,
        toolCalls: 2,
        inputTokens: 0,
        outputTokens: 0,
        events: 6,
      },
    });
    const before = await opened.findRun(runId);
    await expect(opened.resumeRun(runId)).rejects.toMatchObject({
      reason: "ended",
      message: expect.stringContaining(
        `run ${runId} already ended (succeeded at 2027-01-15T08:00:00.500Z), so there is nothing to resume`,
      ),
    });
    expect(await opened.findRun(runId)).toEqual(before);
    await expect(opened.resumeRun("20270101-000000-abcdef")).rejects.toMatchObject({
      reason: "no_such_run",
    });
  });

  it("tells from a store change's intent whether it was applied before the crash", async () => {
    const opened = journal();
    const recorder = await opened.startRun(contractInputs(1_800_000_000_000));
    const live = livePort(new Set(["0.1/4"]));
    const disk = new Map<string, number>();
    const fingerprint = async (path: string): Promise<string> => `v${disk.get(path) ?? 0}`;
    // The store applies a change (the file's version moves) but the process dies before its
    // result is journaled: the append of 0.1/3 is applied, its answer lost.
    const applied: EffectPort = {
      ...live.port,
      async storeOp(request) {
        const op = request.operation;
        if (op.op === "append" || op.op === "write") {
          disk.set(String(op.path), (disk.get(String(op.path)) ?? 0) + 1);
        }
        if (request.effect === "0.1/3") return new Promise<never>(() => {});
        return live.port.storeOp(request);
      },
    };
    const port = createJournalPort(createIntentPort(applied, recorder, { fingerprint }), recorder);
    void program(port.effects);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const runId = recorder.runId;
    const intents = await opened.readIntents(runId);
    expect(intents).toEqual([
      { effect: "0.1/1", path: "a.md", before: "v0" },
      { effect: "0.1/3", path: "log.md", before: "v0" },
    ]);
    expect((await opened.readEffects(runId)).map((e) => e.effect)).toEqual(["0.1/1", "0.1/2"]);

    const again = livePort();
    const resumed = createResumePort(
      opened,
      runId,
      again.port,
      await opened.readEffects(runId),
      await opened.readEvents(runId),
      { fingerprint, intents, idleMs: 20 },
    );
    await program(resumed.effects);
    await resumed.finish(succeeded);
    // 0.1/3 was applied (log.md moved on since its intent): answered, not appended again.
    expect(resumed.foundApplied).toBe(1);
    expect(again.performed).toEqual(["0.1/4", "0.1/5"]);
    expect((await opened.readIntents(runId)).map((i) => i.effect)).toEqual([
      "0.1/1",
      "0.1/3",
      "0.1/5",
    ]);
    expect((await opened.readEffects(runId)).map((e) => e.effect)).toEqual([
      "0.1/1",
      "0.1/2",
      "0.1/3",
      "0.1/4",
      "0.1/5",
    ]);
  });
});
