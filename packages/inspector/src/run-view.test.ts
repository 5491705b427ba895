import { hostname } from "node:os";
import { EVENT_COMMIT_MS } from "@runvil/journal";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runView } from "./run-view";
import { envelope, recordFetchRun, SteppedRun, tempJournal } from "./test-runs";
import type { ModelItem, StoreItem, ToolItem } from "./view-types";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0)) await clean();
});

async function journal() {
  const made = await tempJournal();
  cleanups.push(made.remove);
  return made.journal;
}

async function viewOf(j: Awaited<ReturnType<typeof journal>>, id: string) {
  const run = await j.findRun(id);
  if (run === undefined) throw new Error(`no run ${id}`);
  return runView(run, await j.readEffects(run.id), await j.readEvents(run.id));
}

const answers = { page: "Cats sleep a lot.", reply: "Cats mostly sleep." };

describe("a run's view", () => {
  it("has the run's sections in order, each effect tied to the event that reports it", async () => {
    const j = await journal();
    const id = await recordFetchRun(j, answers);
    const view = await viewOf(j, id);
    expect(view.run).toMatchObject({
      id,
      outcome: "succeeded",
      modelRounds: 1,
      toolCalls: 1,
      tokens: 138,
    });
    expect(view.entries.map((e) => [e.entry, e.section, e.via, e.ended])).toEqual([
      ["0.0", "Fetch summary", "h1", "fall_through"],
      ["0.1", "Fetch", "walk", "return"],
    ]);
    expect(view.runItems).toEqual([
      expect.objectContaining({ type: "event", event: "model_role_bound" }),
    ]);
    const items = view.entries[1]?.items ?? [];
    expect(items.map((i) => i.type)).toEqual(["block", "tool", "store", "log", "model"]);
    const tool = items[1] as ToolItem;
    expect(tool).toMatchObject({
      effect: "0.1/1",
      tool: "web/fetch",
      caller: "script",
      output: envelope(answers.page),
      trusted: false,
      failed: null,
      done: true,
    });
    expect(JSON.parse(tool.arguments)).toEqual({ url: "https://example.test/" });
    expect(tool.durationMs).toBeGreaterThanOrEqual(0);
    expect(items[2] as StoreItem).toMatchObject({
      effect: "0.1/2",
      op: "write",
      target: "page.txt",
      ok: true,
      change: answers.page,
    });
    const model = items[4] as ModelItem;
    expect(model).toMatchObject({
      effect: "0.1/3",
      turn: 1,
      role: "writer",
      via: "infer",
      system: "You summarise pages in one sentence.",
      reply: answers.reply,
      finishReason: "stop",
      inputTokens: 120,
      outputTokens: 18,
      costUsd: "0.0001",
      done: true,
    });
    expect(model.messages).toEqual([
      { role: "user", content: `Summarise:\n${envelope(answers.page)}` },
    ]);
    expect(model.latencyMs).toBeGreaterThanOrEqual(0);
    expect(view.ending).toEqual({
      outcome: "succeeded",
      result: answers.reply,
      error: null,
      stopped: false,
    });
  });

  it("grows while the run records, and has no ending until it ends", async () => {
    const j = await journal();
    // The journal's timers wait for the test: the event window passes only when it says.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    cleanups.push(async () => {
      vi.useRealTimers();
    });
    const run = await SteppedRun.start(j, answers);
    await run.step();
    await run.step();
    const early = await viewOf(j, run.runId);
    expect(early.run.outcome).toBe("running");
    expect(early.ending).toBeNull();
    expect(early.recordedBy).toEqual({ pid: process.pid, host: hostname(), state: "alive" });
    expect(early.entries[1]?.items.map((i) => i.type)).toEqual(["block", "tool"]);
    // Answered, though its tool_result event is not written yet: the effect's output shows.
    expect(early.entries[1]?.items[1]).toMatchObject({
      output: answers.page,
      trusted: false,
      done: true,
    });
    // No effect follows: the event window commits the tool_result on its own.
    vi.advanceTimersByTime(EVENT_COMMIT_MS);
    const windowed = await viewOf(j, run.runId);
    expect(windowed.version).not.toBe(early.version);
    expect(windowed.entries[1]?.items[1]).toMatchObject({ output: envelope(answers.page) });
    await run.finish();
    const late = await viewOf(j, run.runId);
    expect(late.version).not.toBe(early.version);
    expect(late.entries[1]?.items.map((i) => i.type)).toEqual([
      "block",
      "tool",
      "store",
      "log",
      "model",
    ]);
  });

  it("says how many times a run was resumed, and when, and who records it while it runs", async () => {
    const j = await journal();
    const id = await recordFetchRun(j, answers);
    expect((await viewOf(j, id)).run.resumes).toBe(0);
    expect((await viewOf(j, id)).resumedAt).toEqual([]);
    const run = await SteppedRun.start(j, answers);
    await run.step();
    await run.step();
    const recorder = await j.resumeRun(run.runId);
    const reopened = await viewOf(j, run.runId);
    expect(reopened.run).toMatchObject({ outcome: "running", resumes: 1 });
    expect(reopened.resumedAt).toHaveLength(1);
    expect(Date.parse(reopened.resumedAt[0] ?? "")).toBeLessThanOrEqual(Date.now());
    expect(reopened.recordedBy).toMatchObject({ pid: process.pid, state: "alive" });
    await recorder.finish({
      outcome: "succeeded",
      endedAt: Date.now(),
      result: '{"outcome":"succeeded","result":"done","var":{}}',
      counts: {
        effects: 1,
        modelRounds: 0,
        toolCalls: 1,
        inputTokens: 0,
        outputTokens: 0,
        events: 11,
      },
    });
    const ended = await viewOf(j, run.runId);
    expect(ended.recordedBy).toBeNull();
    expect(ended.run.resumes).toBe(1);
    expect(ended.version).not.toBe(reopened.version);
  });

  it("shows a failed run's error with the prompt lines of the block it names", async () => {
    const j = await journal();
    const id = await recordFetchRun(j, answers, { fail: true });
    const view = await viewOf(j, id);
    expect(view.ending?.error).toMatchObject({
      kind: "Lua",
      section: "Fetch",
      entry: "0.1",
      line: 24,
    });
    expect(view.ending?.error?.lines.map((l) => [l.n, l.marked])).toEqual([
      [19, false],
      [20, false],
      [21, false],
      [22, false],
      [23, false],
      [24, true],
      [25, false],
    ]);
    expect(view.ending?.error?.lines[5]?.text).toBe("return summary.text");
    const blocks = view.entries[1]?.items.filter((i) => i.type === "block");
    expect(blocks).toEqual([expect.objectContaining({ status: "failed" })]);
  });
});
