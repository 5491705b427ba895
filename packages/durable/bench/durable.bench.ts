import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEngine } from "@runvil/engine";
import { MemoryStore, RunPort } from "@runvil/harness";
import { createJournalPort, type Journal, openSqliteJournal } from "@runvil/journal";
import { parsePrompt } from "@runvil/parser";
import { afterAll, bench, describe } from "vitest";
import { type DurableWorker, launchDurableWorker } from "../src/durable-worker";
import { freshDatabase, skipReason } from "../src/test-support/test-database";

/**
 * The durable port's cost (docs/design/durable.md "Measurements"): one store-heavy run (400
 * store effects: a write and a read of a 200-byte note, 200 times) unrecorded, on the journal
 * port over a SQLite file (journal.md: tool calls and model rounds committed one by one, store
 * effects in group commits), and as a durable run (every effect a DBOS step on PostgreSQL, each
 * recorded before its result returns). Prints the medians of interleaved rounds and the µs per
 * effect over the unrecorded run. Needs RUNVIL_TEST_PG_URL.
 */
const EFFECTS = 400;
const ROUNDS = 5;
const PROMPT = `---
name: store-heavy
description: Writes and reads notes.
runvil: 0
---

# Store heavy

\`\`\`lua
local note = string.rep('x', 200)
for i = 1, ${EFFECTS / 2} do
  store.write('notes/' .. i .. '.md', note)
  store.read('notes/' .. i .. '.md')
end
return 'done'
\`\`\`
`;

const parsed = await parsePrompt(PROMPT);
if (!parsed.ok) throw new Error("the bench prompt does not parse");
const prompt = parsed.prompt;
const engine = await loadEngine();
const dir = mkdtempSync(join(tmpdir(), "runvil-durable-bench-"));
const journal: Journal = openSqliteJournal(join(dir, "runs.db"));
const inputs = {
  promptPath: "store-heavy.md",
  promptBytes: new TextEncoder().encode(PROMPT),
  args: "",
  seed: "0",
  startedAt: Date.now(),
  host: null,
  bindings: {},
  versions: {},
};

let worker: DurableWorker | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
if (skipReason === undefined) {
  const db = await freshDatabase();
  dropDatabase = db.drop;
  worker = await launchDurableWorker({
    databaseUrl: db.url,
    executorId: "bench",
    execute: (execution) =>
      engine.run(prompt, { effects: execution.wrap(new RunPort(new MemoryStore())) }),
  });
}
afterAll(async () => {
  await worker?.shutdown();
  await dropDatabase?.();
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

async function plain(): Promise<void> {
  const result = await engine.run(prompt, { effects: new RunPort(new MemoryStore()) });
  if (result.outcome !== "succeeded") throw new Error("the plain run failed");
}

async function journaled(): Promise<void> {
  const recorder = await journal.startRun(inputs);
  const port = createJournalPort(new RunPort(new MemoryStore()), recorder);
  const result = await engine.run(prompt, { effects: port.effects });
  await port.finish(result);
  if (result.outcome !== "succeeded") throw new Error("the journaled run failed");
}

let n = 0;
async function durable(): Promise<void> {
  if (worker === undefined) return;
  n += 1;
  const result = await worker.run({
    runId: `bench-${process.pid}-${n}`,
    prompt: { path: "store-heavy.md", text: PROMPT },
    args: "",
    seed: 0,
    startedAt: 0,
    runvilVersion: (await import("../src/names")).RUNVIL_VERSION,
  });
  if (result.outcome !== "succeeded") throw new Error("the durable run failed");
}

async function msOf(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

await plain();
await journaled();
await durable();
const plainMs: number[] = [];
const journaledMs: number[] = [];
const durableMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  plainMs.push(await msOf(plain));
  journaledMs.push(await msOf(journaled));
  if (worker !== undefined) durableMs.push(await msOf(durable));
}
const p = median(plainMs);
const j = median(journaledMs);
const d = median(durableMs);
const perEffect = (ms: number) => (((ms - p) * 1000) / EFFECTS).toFixed(1);
console.log(
  [
    `store-heavy run, ${EFFECTS} effects, medians of ${ROUNDS} interleaved rounds:`,
    `  unrecorded ${p.toFixed(1)} ms`,
    `  SQLite journal ${j.toFixed(1)} ms: ${perEffect(j)} µs per effect`,
    worker === undefined
      ? "  durable: skipped (no RUNVIL_TEST_PG_URL)"
      : `  durable (DBOS on PostgreSQL) ${d.toFixed(1)} ms: ${perEffect(d)} µs per effect, ${(d / j).toFixed(1)}x the journaled run`,
  ].join("\n"),
);

describe(`a store-heavy run (${EFFECTS} store effects)`, () => {
  bench("unrecorded", plain, { iterations: 3, warmupIterations: 1 });
  bench("SQLite journal", journaled, { iterations: 3, warmupIterations: 1 });
  bench.skipIf(worker === undefined)("durable (DBOS on PostgreSQL)", durable, {
    iterations: 3,
    warmupIterations: 1,
  });
});
