import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVENT_BUFFER_BYTES, EventFileSink } from "./event-file-sink";

const dir = mkdtempSync(join(tmpdir(), "cli-event-sink-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("EventFileSink", () => {
  it("writes once the buffer is full, without waiting for the end or an idle turn", () => {
    const file = join(dir, "full.jsonl");
    writeFileSync(file, "");
    const sink = new EventFileSink(file);
    const line = `${JSON.stringify({ seq: 1, type: "lua_checkpoint", message: "x".repeat(100) })}\n`;
    const count = Math.ceil(EVENT_BUFFER_BYTES / line.length);
    for (let i = 0; i < count - 1; i++) sink.write(line);
    expect(readFileSync(file, "utf8")).toBe("");
    sink.write(line);
    // Synchronously on disk: the buffer reached its bound.
    expect(readFileSync(file, "utf8")).toBe(line.repeat(count));
    sink.close();
  });

  it("writes what it holds when the thread goes idle, and the rest at close", async () => {
    const file = join(dir, "idle.jsonl");
    writeFileSync(file, "");
    const sink = new EventFileSink(file);
    sink.write("a\n");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(file, "utf8")).toBe("a\n");
    sink.write("b\n");
    sink.close();
    expect(readFileSync(file, "utf8")).toBe("a\nb\n");
    expect(sink.error).toBeUndefined();
  });

  it("keeps the first write failure and writes nothing more", () => {
    const sink = new EventFileSink("/dev/full");
    sink.write("a\n");
    sink.flush();
    expect(sink.error).toMatch(/ENOSPC/);
    sink.write("b\n");
    sink.close();
    expect(sink.error).toMatch(/ENOSPC/);
  });
});
