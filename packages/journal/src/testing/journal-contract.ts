import { hostname } from "node:os";
import type { EffectOrigin } from "@runvil/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeValue } from "../codec";
import { EVENT_COMMIT_MS, type Journal } from "../journal";
import { JournalError } from "../journal-error";
import { promptHash } from "../prompt-hash";
import type { EffectRecord, EventRecord, RunEnding, RunInputs } from "../records";

/** One contract case's journal: fresh (no runs), and a way to open a second connection to it. */
export interface JournalContractSetup {
  /** An empty journal. */
  readonly journal: Journal;
  /** Opens another connection to the same journal (as a second process would). */
  openAnother(): Promise<Journal>;
  /** Removes what the case made (a temporary file, a database schema). */
  cleanup?(): Promise<void>;
}

/** Makes a fresh journal for one contract case. */
export type JournalFactory = () => Promise<JournalContractSetup>;

/** Options of {@link describeJournalContract}. */
export interface JournalContractOptions {
  /**
   * Why the backend cannot be tested here (such as a missing server): the suite is then skipped,
   * its name saying why. Absent: it runs.
   */
  readonly skip?: string;
}

const ORIGIN: EffectOrigin = {
  execution: "notes",
  chain: "0",
  entry: "0.2",
  section: "Write",
  task: "0",
};

/** Inputs of a test run started at `startedAt`. */
export function contractInputs(startedAt: number, overrides: Partial<RunInputs> = {}): RunInputs {
  return {
    promptPath: "notes.md",
    promptBytes: new TextEncoder().encode("---\nname: notes\n---\n\n# Notes\n\nhé 😀\n"),
    args: "--topic cats",
    seed: "18446744073709551615",
    startedAt,
    host: { catalog: { tools: [{ id: "web/fetch", wire: "fetch" }] }, config: null },
    bindings: { default: "scripted/model" },
    versions: { "@runvil/cli": "0.0.0" },
    ...overrides,
  };
}

/** The n-th test effect: a store write with its output. */
export function contractEffect(n: number, overrides: Partial<EffectRecord> = {}): EffectRecord {
  return {
    effect: `0.2/${n}`,
    kind: "store",
    origin: ORIGIN,
    request: encodeValue({ op: "write", path: `note-${n}.md`, contents: `text ${n}` }),
    issued: n,
    arrival: n,
    eventsBefore: 2 * n,
    startedUs: n * 100,
    durationUs: 12,
    output: encodeValue(undefined),
    ...overrides,
  };
}

/** A test event line with `seq`. */
export function contractEvent(seq: number, chain = "0"): EventRecord {
  return {
    seq,
    type: "lua_checkpoint",
    chain,
    line: `${JSON.stringify({ seq, type: "lua_checkpoint", execution: "notes", chain, entry: "0.2", section: "Write", message: `step ${seq} é` })}\n`,
  };
}

/** A `tool_call_started` event line with `seq`: a script's call of `web/fetch`. */
export function contractToolCallEvent(seq: number): EventRecord {
  return {
    seq,
    type: "tool_call_started",
    chain: "0",
    line: `${JSON.stringify({ seq, type: "tool_call_started", execution: "notes", chain: "0", entry: "0.2", section: "Write", turn: 0, tool_call_id: "", alias: "web/fetch", tool: "web/fetch", caller: "script", arguments: { url: "https://example.test/" } })}\n`,
  };
}

const ENDING: RunEnding = {
  outcome: "succeeded",
  endedAt: 1_800_000_005_000,
  result: encodeValue({ outcome: "succeeded", result: "done", var: { n: 3n } }),
  counts: {
    effects: 2,
    modelRounds: 1,
    toolCalls: 0,
    inputTokens: 120,
    outputTokens: 30,
    events: 3,
  },
};

/**
 * The journal contract (docs/design/journal.md), written once and run against every backend
 * (SQLite, PostgreSQL): inputs, effects, events and endings read back exactly; ids and prefixes;
 * listing; pruning; large payloads; a run cut short reads up to its last effect; two connections
 * writing at once. Call it at the top level of a vitest test file.
 */
export function describeJournalContract(
  backend: string,
  factory: JournalFactory,
  options: JournalContractOptions = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`${backend}: the journal contract (skipped: ${options.skip})`, () => {
      it("is not run here", () => {});
    });
    return;
  }
  describe(`${backend}: the journal contract`, () => {
    const opened: JournalContractSetup[] = [];
    const others: Journal[] = [];
    const setup = async (): Promise<JournalContractSetup> => {
      const made = await factory();
      opened.push(made);
      return made;
    };
    const another = async (made: JournalContractSetup): Promise<Journal> => {
      const journal = await made.openAnother();
      others.push(journal);
      return journal;
    };
    afterEach(async () => {
      for (const journal of others.splice(0)) await journal.close();
      for (const made of opened.splice(0)) {
        await made.journal.close();
        await made.cleanup?.();
      }
    });

    it("reads back a new run's inputs exactly, as running with no effects", async () => {
      const { journal } = await setup();
      const inputs = contractInputs(1_800_000_000_000);
      const recorder = await journal.startRun(inputs);
      expect(recorder.runId).toMatch(/^20270115-\d{6}-[0-9a-f]{6}$/);
      const run = await journal.findRun(recorder.runId);
      expect(run?.inputs).toEqual(inputs);
      expect(run).toMatchObject({
        id: recorder.runId,
        promptPath: "notes.md",
        promptHash: promptHash(inputs.promptBytes),
        startedAt: 1_800_000_000_000,
        outcome: "running",
        effects: 0,
        events: 0,
      });
      expect(run?.endedAt).toBeUndefined();
      expect(run?.result).toBeUndefined();
    });

    it("writes buffered events with the next effect, and reads both back in order", async () => {
      const { journal } = await setup();
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      recorder.recordEvent(contractEvent(1));
      recorder.recordEvent(contractToolCallEvent(2));
      expect(await journal.readEvents(recorder.runId)).toEqual([]);
      await recorder.recordEffect(contractEffect(1));
      const failure = {
        type: "store" as const,
        reason: "anchor_not_unique",
        path: "n.md",
        message: "n.md: the anchor text occurs 2 times in the file",
        count: 2,
      };
      await recorder.recordEffect(
        contractEffect(2, { arrival: 3, output: undefined, failure, kind: "store" }),
      );
      await recorder.recordEffect(
        contractEffect(3, {
          arrival: 2,
          kind: "tool",
          output: encodeValue({ text: "ok", trusted: false }),
        }),
      );
      expect(await journal.readEvents(recorder.runId)).toEqual([
        contractEvent(1),
        contractToolCallEvent(2),
      ]);
      expect(await journal.readEffects(recorder.runId)).toEqual([
        contractEffect(1),
        contractEffect(2, { arrival: 3, output: undefined, failure }),
        contractEffect(3, {
          arrival: 2,
          kind: "tool",
          output: encodeValue({ text: "ok", trusted: false }),
        }),
      ]);
      // A running run's tool calls are its tool_call_started events (journal.md).
      const run = await journal.findRun(recorder.runId);
      expect(run).toMatchObject({ outcome: "running", effects: 3, toolCalls: 1, events: 2 });
    });

    it("commits events that wait for no effect within the event window, for every connection", async () => {
      const made = await setup();
      const { journal } = made;
      const reader = await another(made);
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      await recorder.recordEffect(contractEffect(1));
      // A model round in progress: its events are emitted, no effect follows for a while.
      const waited = performance.now();
      recorder.recordEvent(contractEvent(3));
      recorder.recordEvent(contractEvent(4));
      await vi.waitFor(
        async () => expect(await reader.readEvents(recorder.runId)).toHaveLength(2),
        { timeout: 10_000, interval: 20 },
      );
      // Never before the window: the events wait for an effect to share its commit first.
      expect(performance.now() - waited).toBeGreaterThanOrEqual(EVENT_COMMIT_MS - 1);
      expect(await reader.readEvents(recorder.runId)).toEqual([contractEvent(3), contractEvent(4)]);
      expect(await reader.findRun(recorder.runId)).toMatchObject({
        outcome: "running",
        effects: 1,
        events: 2,
      });
      // Then the next effect and the ending write only what came after.
      recorder.recordEvent(contractEvent(5));
      await recorder.recordEffect(contractEffect(2, { eventsBefore: 3 }));
      await recorder.finish({ ...ENDING, counts: { ...ENDING.counts, events: 3 } });
      expect((await reader.readEvents(recorder.runId)).map((e) => e.seq)).toEqual([3, 4, 5]);
      expect((await reader.readEffects(recorder.runId)).map((e) => e.effect)).toEqual([
        "0.2/1",
        "0.2/2",
      ]);
    });

    it("keeps request texts byte for byte, bytes and unicode included", async () => {
      const { journal } = await setup();
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      const request = encodeValue({
        op: "write",
        path: Uint8Array.of(0xff, 0x61),
        contents: "é😀\u0000",
      });
      await recorder.recordEffect(contractEffect(1, { request }));
      const [effect] = await journal.readEffects(recorder.runId);
      expect(effect?.request).toBe(request);
    });

    it("records the ending: outcome, result, error kind, counts, end instant", async () => {
      const { journal } = await setup();
      const ok = await journal.startRun(contractInputs(1_800_000_000_000));
      recorderEvents(ok, 3);
      await ok.recordEffect(contractEffect(1));
      await ok.finish(ENDING);
      const failed = await journal.startRun(contractInputs(1_800_000_001_000));
      await failed.finish({ ...ENDING, outcome: "failed", errorKind: "Vfs", result: "{}" });
      expect(await journal.findRun(ok.runId)).toMatchObject({
        outcome: "succeeded",
        endedAt: ENDING.endedAt,
        result: ENDING.result,
        effects: 2,
        modelRounds: 1,
        inputTokens: 120,
        outputTokens: 30,
        events: 3,
      });
      expect(await journal.readEvents(ok.runId)).toHaveLength(3);
      expect(await journal.findRun(failed.runId)).toMatchObject({
        outcome: "failed",
        errorKind: "Vfs",
      });
    });

    it("lists runs newest first, with a limit", async () => {
      const { journal } = await setup();
      const a = await journal.startRun(contractInputs(1_800_000_000_000));
      const b = await journal.startRun(contractInputs(1_800_000_002_000));
      const c = await journal.startRun(contractInputs(1_800_000_001_000));
      await b.finish(ENDING);
      const runs = await journal.listRuns();
      expect(runs.map((r) => r.id)).toEqual([b.runId, c.runId, a.runId]);
      expect(runs[0]).toMatchObject({ outcome: "succeeded", effects: 2 });
      expect(runs[1]).toMatchObject({ outcome: "running", effects: 0 });
      expect((await journal.listRuns({ limit: 1 })).map((r) => r.id)).toEqual([b.runId]);
    });

    it("finds a run by a unique prefix of its id; an ambiguous prefix is an error", async () => {
      const { journal } = await setup();
      const a = await journal.startRun(contractInputs(1_800_000_000_000));
      const b = await journal.startRun(contractInputs(1_800_000_001_000));
      expect((await journal.findRun(a.runId.slice(0, 15)))?.id).toBe(a.runId);
      expect((await journal.findRun(b.runId))?.id).toBe(b.runId);
      const error = await journal.findRun("20270115").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ reason: "ambiguous_id" });
      expect((error as Error).message).toContain("names several runs");
      expect(await journal.findRun("19990101-000000-000000")).toBeUndefined();
      expect(await journal.findRun("'; DROP TABLE runs; --")).toBeUndefined();
    });

    it("prunes the runs started before an instant, with their effects and events", async () => {
      const { journal } = await setup();
      const old = await journal.startRun(contractInputs(1_700_000_000_000));
      recorderEvents(old, 2);
      await old.recordEffect(contractEffect(1));
      await old.finish(ENDING);
      const recent = await journal.startRun(contractInputs(1_800_000_000_000));
      await recent.recordEffect(contractEffect(1));
      expect(await journal.pruneRuns(1_750_000_000_000)).toBe(1);
      expect(await journal.findRun(old.runId)).toBeUndefined();
      expect(await journal.readEffects(old.runId)).toEqual([]);
      expect(await journal.readEvents(old.runId)).toEqual([]);
      expect((await journal.listRuns()).map((r) => r.id)).toEqual([recent.runId]);
      expect(await journal.readEffects(recent.runId)).toHaveLength(1);
      expect(await journal.pruneRuns(1_750_000_000_000)).toBe(0);
    });

    it("keeps a 10 MB tool result exactly", async () => {
      const { journal } = await setup();
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      const text = "0123456789abcdé\n".repeat(655_360); // 10 MiB + 655,360 bytes of é
      const output = encodeValue({ text, trusted: false });
      await recorder.recordEffect(contractEffect(1, { kind: "tool", output }));
      const [effect] = await journal.readEffects(recorder.runId);
      expect(effect?.output?.length).toBe(output.length);
      expect(effect?.output === output).toBe(true);
    });

    it("commits the buffered events with a store intent, at once, for every connection", async () => {
      const made = await setup();
      const recorder = await made.journal.startRun(contractInputs(1_800_000_000_000));
      recorder.recordEvent(contractEvent(1));
      recorder.recordEvent(contractEvent(2));
      // A crash-safe point: a store change is about to be applied; the events before it are
      // committed with its intent, not after the event window (journal.md "Writes and crashes").
      await recorder.recordIntent({ effect: "0.2/1", path: "note-1.md", before: "absent" });
      const reader = await another(made);
      expect(await reader.readEvents(recorder.runId)).toEqual([contractEvent(1), contractEvent(2)]);
      expect(await reader.readIntents(recorder.runId)).toEqual([
        { effect: "0.2/1", path: "note-1.md", before: "absent" },
      ]);
      // The next effect writes only what came after.
      recorder.recordEvent(contractEvent(3));
      await recorder.recordEffect(contractEffect(1, { eventsBefore: 3 }));
      expect((await reader.readEvents(recorder.runId)).map((e) => e.seq)).toEqual([1, 2, 3]);
    });

    it("holds a run cut short up to its last effect, for every connection", async () => {
      const made = await setup();
      const recorder = await made.journal.startRun(contractInputs(1_800_000_000_000));
      recorder.recordEvent(contractEvent(1));
      await recorder.recordEffect(contractEffect(1));
      recorder.recordEvent(contractEvent(2)); // never written: the run "crashed" here
      const reader = await another(made);
      const run = await reader.findRun(recorder.runId);
      expect(run).toMatchObject({ outcome: "running", effects: 1, events: 1 });
      expect(await reader.readEvents(recorder.runId)).toEqual([contractEvent(1)]);
      expect(await reader.readEffects(recorder.runId)).toEqual([contractEffect(1)]);
    });

    it("reopens a run cut short or cancelled for a resume, and refuses one that ended", async () => {
      const { journal } = await setup();
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      recorderEvents(recorder, 3);
      await recorder.recordIntent({ effect: "0.2/1", path: "note-1.md", before: "absent" });
      await recorder.recordEffect(contractEffect(1));
      const aborted = { type: "error", name: "AbortError", message: "aborted" } as const;
      await recorder.recordEffect(contractEffect(2, { kind: "tool", failure: aborted }));
      await recorder.finish({ ...ENDING, outcome: "cancelled" });
      const runId = recorder.runId;
      expect(await journal.resumeCount(runId)).toBe(0);
      const resumed = await journal.resumeRun(runId);
      expect(resumed.runId).toBe(runId);
      expect(await journal.resumeCount(runId)).toBe(1);
      expect(await journal.findRun(runId)).toMatchObject({ outcome: "running" });
      // The aborted call is gone (it runs again); the rest is kept.
      expect((await journal.readEffects(runId)).map((e) => e.effect)).toEqual(["0.2/1"]);
      expect(await journal.readIntents(runId)).toEqual([
        { effect: "0.2/1", path: "note-1.md", before: "absent" },
      ]);
      await resumed.dropEventsFrom(2);
      expect((await journal.readEvents(runId)).map((e) => e.seq)).toEqual([1]);
      recorderEvents({ recordEvent: (e) => resumed.recordEvent({ ...e, seq: e.seq + 1 }) }, 2);
      await resumed.recordIntent({ effect: "0.2/1", path: "note-1.md", before: "v2" });
      await resumed.recordEffect(contractEffect(3));
      await resumed.finish(ENDING);
      expect((await journal.readEvents(runId)).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(await journal.readIntents(runId)).toEqual([
        { effect: "0.2/1", path: "note-1.md", before: "v2" },
      ]);
      const ended = await journal.findRun(runId);
      expect(ended).toMatchObject({ outcome: ENDING.outcome });
      const error = await journal.resumeRun(runId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ reason: "ended" });
      expect(await journal.findRun(runId)).toEqual(ended);
      expect(await journal.resumeCount(runId)).toBe(1);
      await expect(journal.resumeRun("20270101-000000-abcdef")).rejects.toMatchObject({
        reason: "no_such_run",
      });
    });

    it("names the process recording a run until its ending, and keeps when each resume reopened it", async () => {
      const { journal } = await setup();
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      const runId = recorder.runId;
      const started = await journal.findRun(runId);
      expect(started?.owner).toMatchObject({ pid: process.pid, host: hostname() });
      expect(started?.owner?.started).toMatch(/^(linux|ms):/);
      expect(started).toMatchObject({ resumes: 0, resumedAt: [] });
      // This process's own run is not refused (a resume claims it before it runs, then reopens);
      // a claim given back leaves the record as it was.
      const cut = await journal.findRun(runId);
      await (await journal.claimRun(runId)).release();
      expect(await journal.findRun(runId)).toEqual(cut);
      await journal.claimRun(runId);
      const first = Date.now();
      const resumed = await journal.resumeRun(runId);
      await resumed.finish({ ...ENDING, outcome: "cancelled" });
      const cancelled = await journal.findRun(runId);
      expect(cancelled?.owner).toBeUndefined();
      await journal.claimRun(runId);
      expect((await journal.findRun(runId))?.owner).toMatchObject({ pid: process.pid });
      const again = await journal.resumeRun(runId);
      await again.finish(ENDING);
      const ended = await journal.findRun(runId);
      expect(ended).toMatchObject({ resumes: 2, outcome: "succeeded" });
      expect(ended?.owner).toBeUndefined();
      expect(ended?.resumedAt).toHaveLength(2);
      const [one, two] = ended?.resumedAt ?? [];
      expect(one).toBeGreaterThanOrEqual(first);
      expect(two).toBeGreaterThanOrEqual(one ?? 0);
      expect(two).toBeLessThanOrEqual(Date.now());
      expect((await journal.listRuns()).map((run) => run.resumes)).toEqual([2]);
      await expect(journal.claimRun(runId)).rejects.toMatchObject({ reason: "ended" });
      await expect(journal.claimRun("20270101-000000-abcdef")).rejects.toMatchObject({
        reason: "no_such_run",
      });
      expect(await journal.findRun(runId)).toEqual(ended);
    });

    it("lets two connections write two runs at once without losing or mixing anything", async () => {
      const made = await setup();
      const second = await another(made);
      const a = await made.journal.startRun(contractInputs(1_800_000_000_000));
      const b = await second.startRun(contractInputs(1_800_000_000_001));
      const writes: Promise<void>[] = [];
      for (let n = 1; n <= 200; n += 1) {
        a.recordEvent(contractEvent(n));
        b.recordEvent(contractEvent(n, "0.1"));
        const pa = a.recordEffect(contractEffect(n));
        const pb = b.recordEffect(contractEffect(n, { kind: "model" }));
        if (pa !== undefined) writes.push(pa);
        if (pb !== undefined) writes.push(pb);
      }
      await Promise.all(writes);
      await Promise.all([a.finish(ENDING), b.finish(ENDING)]);
      const effectsA = await second.readEffects(a.runId);
      const effectsB = await made.journal.readEffects(b.runId);
      expect(effectsA).toHaveLength(200);
      expect(effectsB).toHaveLength(200);
      expect(effectsA.every((e, i) => e.effect === `0.2/${i + 1}` && e.kind === "store")).toBe(
        true,
      );
      expect(effectsB.every((e, i) => e.effect === `0.2/${i + 1}` && e.kind === "model")).toBe(
        true,
      );
      expect((await made.journal.readEvents(b.runId)).map((e) => e.chain)).toEqual(
        Array.from({ length: 200 }, () => "0.1"),
      );
      expect(await second.listRuns()).toHaveLength(2);
    });
  });
}

function recorderEvents(recorder: { recordEvent(event: EventRecord): void }, count: number): void {
  for (let seq = 1; seq <= count; seq += 1) recorder.recordEvent(contractEvent(seq));
}
