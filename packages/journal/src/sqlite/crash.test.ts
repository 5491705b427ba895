import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteJournal } from "./sqlite-journal";

const dist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "runvil-journal-crash-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A process that records one run as fast as it can — per effect: two buffered events, then the
 * effect (a 2 KB output every 7th) — until it is killed. It prints each run id on its first line.
 */
const WRITER = `
import { openSqliteJournal, encodeValue } from ${JSON.stringify(dist)};
const journal = openSqliteJournal(process.argv[1]);
const recorder = await journal.startRun({
  promptPath: "crash.md", promptBytes: new Uint8Array([35]), args: "", seed: "0",
  startedAt: Date.now(), host: null, bindings: {}, versions: {},
});
process.stdout.write(recorder.runId + "\\n");
const origin = { execution: "c", chain: "0", entry: "0", section: "C", task: "0" };
for (let n = 1; ; n += 1) {
  for (const k of [1, 2]) {
    const seq = 2 * n - 2 + k;
    recorder.recordEvent({ seq, type: "lua_checkpoint", chain: "0", line: JSON.stringify({ seq, n }) + "\\n" });
  }
  recorder.recordEffect({
    effect: "0/" + n, kind: "store", origin, issued: n, arrival: n, eventsBefore: 2 * n, startedUs: n, durationUs: 1,
    request: encodeValue({ op: "write", path: n + ".md", contents: "x" }),
    output: encodeValue(n % 7 === 0 ? "y".repeat(2000) : undefined),
  });
  if (n % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
`;

function killedWriter(file: string, afterMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", WRITER, file]);
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) setTimeout(() => child.kill("SIGKILL"), afterMs);
    });
    child.on("exit", (_code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`the writer ended by itself: ${err}`));
      else resolve(out.trim());
    });
  });
}

describe.skipIf(!existsSync(dist))(
  `the SQLite journal after kill -9${existsSync(dist) ? "" : " (skipped: build @runvil/journal first)"}`,
  () => {
    it("opens and holds each killed run up to its last completed effect, with its events", async () => {
      const file = join(folder, "runs.db");
      const runIds: string[] = [];
      // Kill points from the first effects to well into the run (a PRNG-free spread).
      for (const afterMs of [0, 3, 11, 29, 57, 101, 173])
        runIds.push(await killedWriter(file, afterMs));
      const journal = openSqliteJournal(file);
      const runs = await journal.listRuns();
      expect(runs.map((r) => r.id).sort()).toEqual([...runIds].sort());
      let total = 0;
      for (const id of runIds) {
        const effects = await journal.readEffects(id);
        const events = await journal.readEvents(id);
        const n = effects.length;
        total += n;
        // No gap, no doubled effect: exactly 0/1 … 0/n, and the two events of each, and at
        // most the events of the next effect (committed by the event window before it).
        expect(effects.map((e) => e.effect)).toEqual(
          Array.from({ length: n }, (_, i) => `0/${i + 1}`),
        );
        expect(events.length - 2 * n).toBeGreaterThanOrEqual(0);
        expect(events.length - 2 * n).toBeLessThanOrEqual(2);
        expect(events.map((e) => e.seq)).toEqual(
          Array.from({ length: events.length }, (_, i) => i + 1),
        );
        for (const effect of effects) {
          const index = Number(effect.effect.slice(2));
          expect(effect.output?.length).toBe(index % 7 === 0 ? 2002 : '{"$undefined":true}'.length);
        }
        expect(runs.find((r) => r.id === id)).toMatchObject({
          outcome: "running",
          effects: n,
          events: events.length,
        });
      }
      expect(total).toBeGreaterThan(0);
      await journal.close();
    });
  },
);
