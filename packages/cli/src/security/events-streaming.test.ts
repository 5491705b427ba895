import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVENT_BUFFER_BYTES } from "../run/event-file-sink";
import { promptDir, removeTestFolders, signalWhen } from "../test-bin";
import { startWorkerRun } from "../worker/worker-run";

/**
 * Attack class: events buffered until exit (docs/security.md). `--events FILE` kept every event
 * in memory and wrote them at exit: memory grew without bound on a long run (+120 MB in 30 s),
 * and kill -9 left a 0-byte file. The run's thread now appends events to the file as they
 * happen, through a buffer of at most 64 KiB (docs/design/events.md "The events file").
 */

const workerUrl = new URL("../../dist/worker.cjs", import.meta.url);
afterAll(removeTestFolders);

/** Lua that emits `count` store_op events (store.exists on names that do not exist). */
const manyEvents = (count: number): string => `for i = 1, ${count} do store.exists('f' .. i) end`;

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("security: --events is streamed with a bounded buffer", () => {
  it("writes events from the run's thread: none of them is held by the main thread", async () => {
    const { dir, file } = promptDir(`${manyEvents(20_000)}\nreturn 'done'`);
    const events = join(dir, "events.jsonl");
    writeFileSync(events, "");
    let held = 0;
    const handle = startWorkerRun(
      {
        file,
        bytes: readFileSync(file),
        args: "",
        operator: false,
        eventLines: false,
        eventsFile: events,
        progress: false,
      },
      { workerUrl, onEventLine: () => held++ },
    );
    const end = await handle.done;
    expect(end).toMatchObject({ kind: "report", report: { kind: "finished" } });
    expect(held).toBe(0);
    const written = lines(events);
    expect(written.filter((e) => e.type === "store_op")).toHaveLength(20_000);
    expect(written.at(-1)).toMatchObject({ type: "run_finished", outcome: "succeeded" });
  });

  it("leaves every event but the last 64 KiB on disk after kill -9", async () => {
    const { dir, file, store } = promptDir(
      `${manyEvents(20_000)}\nstore.write('started.txt', 'x')\nwhile true do end`,
    );
    const events = join(dir, "events.jsonl");
    const exit = await signalWhen(
      ["run", file, "--store", store, "--events", events],
      join(store, "started.txt"),
      { signals: ["SIGKILL"] },
    );
    expect(exit.signal).toBe("SIGKILL");
    const text = readFileSync(events, "utf8");
    // Only whole lines are written, each a complete event.
    expect(text.endsWith("\n")).toBe(true);
    const written = lines(events);
    // At most the buffer's worth of the shortest lines is lost with the process.
    const shortest = Math.min(...written.map((e) => JSON.stringify(e).length + 1));
    const lost = Math.ceil(EVENT_BUFFER_BYTES / shortest);
    expect(written.filter((e) => e.type === "store_op").length).toBeGreaterThan(20_000 - lost);
    expect(written.map((e) => e.seq)).toEqual(written.map((_, i) => i + 1));
  });
});
