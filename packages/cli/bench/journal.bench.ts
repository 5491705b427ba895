import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEngine } from "@runvil/engine";
import { MemoryStore, RunPort } from "@runvil/harness";
import {
  createJournalPort,
  createReplayPort,
  type Journal,
  openSqliteJournal,
} from "@runvil/journal";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import { afterAll, bench, describe } from "vitest";

/**
 * The journal's cost (docs/design/journal.md): one store-heavy run (2,000 store effects: a write
 * and a read of a 200-byte note, 1,000 times) on the unjournaled RunPort, on the journal port
 * over a SQLite file (every effect committed before its result returns), and replayed from the
 * journal. Goals: journaled ≤ 1.2× unjournaled and ≤ 30 µs per effect of overhead. Before
 * vitest's tables, prints the medians of interleaved rounds, the ratio, the µs per effect and
 * the journal's size per 1,000 effects.
 */

const EFFECTS_PER_RUN = 2000;
const ROUNDS = 9;
const PROMPT = `---
name: store-heavy
description: Writes and reads a thousand notes.
runvil: 0
---

# Store heavy

\`\`\`lua
local note = string.rep('x', 200)
for i = 1, ${EFFECTS_PER_RUN / 2} do
  store.write('notes/' .. i .. '.md', note)
  store.read('notes/' .. i .. '.md')
end
return 'done'
\`\`\`
`;

const dir = mkdtempSync(join(tmpdir(), "runvil-journal-bench-"));
const file = join(dir, "runs.db");
const journal: Journal = openSqliteJournal(file);
afterAll(async () => {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const parsed = createPromptParser(await loadLuaRuntime())(new TextEncoder().encode(PROMPT), {
  path: "store-heavy.md",
});
if (!parsed.ok) throw new Error("the bench prompt does not parse");
const prompt = parsed.prompt;
const engine = await loadEngine();
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

async function plain(): Promise<void> {
  const result = await engine.run(prompt, { effects: new RunPort(new MemoryStore()) });
  if (result.outcome !== "succeeded") throw new Error("the plain run failed");
}

let lastRunId = "";
async function journaled(): Promise<void> {
  const recorder = await journal.startRun(inputs);
  const port = createJournalPort(new RunPort(new MemoryStore()), recorder);
  const result = await engine.run(prompt, { effects: port.effects });
  await port.finish(result);
  if (result.outcome !== "succeeded" || port.recordingError !== undefined) {
    throw new Error("the journaled run failed");
  }
  lastRunId = recorder.runId;
}

async function replayed(runId: string, from: Journal = journal): Promise<void> {
  const effects = await from.readEffects(runId);
  const events = await from.readEvents(runId);
  const replay = createReplayPort(effects, events);
  const result = await engine.run(prompt, { effects: replay.effects });
  const { divergence } = replay.conclude();
  if (result.outcome !== "succeeded" || divergence !== undefined)
    throw new Error("the replay diverged");
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
const plainMs: number[] = [];
const journaledMs: number[] = [];
const replayMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  plainMs.push(await msOf(plain));
  journaledMs.push(await msOf(journaled));
  const runId = lastRunId;
  replayMs.push(await msOf(() => replayed(runId)));
}
const before =
  statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
await journaled();
await journal.close();
const db = openSqliteJournal(file); // a checkpoint on close folds the WAL into the file
const sizeOne = statSync(file).size;
await db.close();
const p = median(plainMs);
const j = median(journaledMs);
const r = median(replayMs);
const runs = ROUNDS + 3;
console.log(
  [
    `store-heavy run, ${EFFECTS_PER_RUN} effects, medians of ${ROUNDS} interleaved rounds:`,
    `  unjournaled ${p.toFixed(1)} ms, journaled ${j.toFixed(1)} ms: ${(j / p).toFixed(2)}x, ${(((j - p) * 1000) / EFFECTS_PER_RUN).toFixed(1)} µs per effect`,
    `  replayed from the journal ${r.toFixed(1)} ms: ${(r / j).toFixed(2)}x the journaled run, ${(r / p).toFixed(2)}x the unjournaled one`,
    `  journal size: ${(sizeOne / runs / (EFFECTS_PER_RUN / 1000) / 1024).toFixed(1)} KiB per 1,000 effects (${runs} runs, ${(sizeOne / 1024).toFixed(0)} KiB; before the last checkpoint ${(before / 1024).toFixed(0)} KiB)`,
  ].join("\n"),
);
// Reopened for the benches below.
const benchJournal = openSqliteJournal(file);
afterAll(() => benchJournal.close());

describe("a store-heavy run (2,000 store effects)", () => {
  bench("unjournaled (RunPort over a MemoryStore)", plain, { iterations: 5, warmupIterations: 1 });
  bench(
    "journaled (SQLite, a commit per effect)",
    async () => {
      const recorder = await benchJournal.startRun(inputs);
      const port = createJournalPort(new RunPort(new MemoryStore()), recorder);
      await port.finish(await engine.run(prompt, { effects: port.effects }));
    },
    { iterations: 5, warmupIterations: 1 },
  );
  bench("replayed from the journal", () => replayed(lastRunId, benchJournal), {
    iterations: 5,
    warmupIterations: 1,
  });
});
