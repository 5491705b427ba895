import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirectory } from "../test-support/temp-directory";
import { EventRecorder } from "./event-recorder";
import { eventRecordLine, JsonLinesEventSink } from "./json-lines-event-sink";
import { MemoryEventSink } from "./memory-event-sink";
import { parseEventRecords, readEventRecords } from "./read-event-records";

type TestEvent =
  | { type: "chunk_started"; section: string }
  | { type: "store_op"; section: string; op: string; path: string; ok: boolean }
  | { type: "lua_checkpoint"; section: string; message: string };

const EVENTS: TestEvent[] = [
  { type: "chunk_started", section: "Main" },
  { type: "lua_checkpoint", section: "Main", message: "before write" },
  { type: "store_op", section: "Main", op: "write", path: "state.txt", ok: true },
  { type: "lua_checkpoint", section: "Main", message: "after write" },
];

describe("EventRecorder with a memory sink", () => {
  it("numbers events from 1 in record order and returns each record", () => {
    const sink = new MemoryEventSink<TestEvent>();
    const recorder = new EventRecorder(sink);
    const returned = EVENTS.map((event) => recorder.record(event));
    expect(returned.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(sink.records).toEqual(EVENTS.map((event, i) => ({ seq: i + 1, event })));
    expect(sink.events).toEqual(EVENTS);
    expect(recorder.nextSeq).toBe(5);
    expect(Object.isFrozen(returned[0])).toBe(true);
  });

  it("starts at firstSeq and refuses a bad one", () => {
    const recorder = new EventRecorder(new MemoryEventSink<string>(), { firstSeq: 41 });
    expect(recorder.record("x").seq).toBe(41);
    expect(() => new EventRecorder(new MemoryEventSink<string>(), { firstSeq: -1 })).toThrow(
      "firstSeq must be a non-negative safe integer, got -1",
    );
  });

  it("refuses records after close", async () => {
    const recorder = new EventRecorder(new MemoryEventSink<string>());
    recorder.record("a");
    await recorder.close();
    expect(() => recorder.record("b")).toThrow("the event recorder is closed");
    expect(recorder.nextSeq).toBe(2);
  });
});

describe("EventRecorder with a JSON Lines file", () => {
  it("writes one line per event, in order, flushed", async () => {
    const file = join(tempDirectory(), "events.jsonl");
    const recorder = new EventRecorder(new JsonLinesEventSink<TestEvent>(file));
    for (const event of EVENTS) recorder.record(event);
    await recorder.flush();
    expect(readFileSync(file, "utf8")).toBe(
      [
        '{"seq":1,"event":{"type":"chunk_started","section":"Main"}}',
        '{"seq":2,"event":{"type":"lua_checkpoint","section":"Main","message":"before write"}}',
        '{"seq":3,"event":{"type":"store_op","section":"Main","op":"write","path":"state.txt","ok":true}}',
        '{"seq":4,"event":{"type":"lua_checkpoint","section":"Main","message":"after write"}}',
        "",
      ].join("\n"),
    );
    await recorder.close();
    expect(await readEventRecords(file)).toEqual(EVENTS.map((event, i) => ({ seq: i + 1, event })));
  });

  it("keeps order across many events recorded while writes are in flight", async () => {
    const file = join(tempDirectory(), "many.jsonl");
    const recorder = new EventRecorder(new JsonLinesEventSink<{ n: number }>(file, { sync: true }));
    for (let n = 0; n < 500; n++) {
      recorder.record({ n });
      if (n % 97 === 0) await Promise.resolve();
      if (n === 250) await recorder.flush();
    }
    await recorder.close();
    const records = await readEventRecords(file);
    expect(records).toHaveLength(500);
    expect(
      records.every((record, i) => record.seq === i + 1 && (record.event as { n: number }).n === i),
    ).toBe(true);
  });

  it("truncates by default and appends when asked, continuing the numbering", async () => {
    const file = join(tempDirectory(), "runs.jsonl");
    writeFileSync(file, "old content\n");
    const first = new EventRecorder(new JsonLinesEventSink<string>(file));
    first.record("a");
    await first.close();
    const second = new EventRecorder(new JsonLinesEventSink<string>(file, { append: true }), {
      firstSeq: first.nextSeq,
    });
    second.record("b");
    await second.close();
    expect(readFileSync(file, "utf8")).toBe('{"seq":1,"event":"a"}\n{"seq":2,"event":"b"}\n');
  });

  it("creates the file on flush even with no events", async () => {
    const file = join(tempDirectory(), "empty.jsonl");
    const recorder = new EventRecorder(new JsonLinesEventSink<string>(file));
    await recorder.close();
    expect(readFileSync(file, "utf8")).toBe("");
  });

  it("refuses an event that is not JSON data at once, spending no number", async () => {
    const file = join(tempDirectory(), "bad.jsonl");
    const recorder = new EventRecorder(new JsonLinesEventSink<unknown>(file));
    recorder.record({ ok: 1 });
    expect(() => recorder.record(undefined)).toThrow(
      new TypeError("event 2 is not JSON data, got undefined"),
    );
    expect(() => recorder.record({ big: 1n })).toThrow(TypeError);
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(() => recorder.record(cycle)).toThrow(TypeError);
    recorder.record({ ok: 2 });
    await recorder.close();
    expect(readFileSync(file, "utf8")).toBe(
      '{"seq":1,"event":{"ok":1}}\n{"seq":2,"event":{"ok":2}}\n',
    );
  });

  it("reports a file that cannot be written on flush, close and later records", async () => {
    const file = join(tempDirectory(), "missing-dir", "events.jsonl");
    const recorder = new EventRecorder(new JsonLinesEventSink<string>(file));
    recorder.record("a");
    await expect(recorder.flush()).rejects.toMatchObject({ code: "ENOENT" });
    expect(() => recorder.record("b")).toThrow(expect.objectContaining({ code: "ENOENT" }));
    await expect(recorder.close()).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("parseEventRecords", () => {
  it("reads records, skipping blank lines", () => {
    expect(parseEventRecords('{"seq":1,"event":null}\n\n{"seq":2,"event":[1]}\n')).toEqual([
      { seq: 1, event: null },
      { seq: 2, event: [1] },
    ]);
    expect(eventRecordLine({ seq: 7, event: "é\n" })).toBe('{"seq":7,"event":"é\\n"}\n');
  });

  it("names the line that is not a record", () => {
    expect(() => parseEventRecords('{"seq":1,"event":1}\n{"seq":2}\n')).toThrow(
      'line 2: not an event record ({"seq":N,"event":...})',
    );
    expect(() => parseEventRecords('{"seq":1.5,"event":1}')).toThrow("line 1: not an event record");
    expect(() => parseEventRecords("[1]\n")).toThrow("line 1: not an event record");
    expect(() => parseEventRecords("\n{oops")).toThrow("line 2: not JSON");
  });
});
