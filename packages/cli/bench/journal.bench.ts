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
 * vitest's tables, prints for wall time and CPU time the medians of interleaved rounds, the
 * paired ratio and µs per effect (each round's journaled run against its own plain run), the
 * replay against the journaled run, and the journal's size per 1,000 effects.
 */

const EFFECTS_PER_RUN = 2000;
const ROUNDS = 15;
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

/** A run's wall time and CPU time (the process's, user and system), in ms. */
async function timeOf(work: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

await plain();
await journaled();
type Times = { wall: number[]; cpu: number[] };
const times = (): Times => ({ wall: [], cpu: [] });
const plainT = times();
const journaledT = times();
const replayT = times();
// Per round, the journaled run's ratio to the plain run and its overhead per effect: paired
// (the same round, alternating order), so the machine's load moves both.
const ratio = times();
const overheadUs = times();
const replayRatio = times();
for (let round = 0; round < ROUNDS; round++) {
  // Alternating which goes first, so neither always runs on a warmer (or colder) machine.
  const first = round % 2 === 0 ? await timeOf(plain) : await timeOf(journaled);
  const second = round % 2 === 0 ? await timeOf(journaled) : await timeOf(plain);
  const [p, jj] = round % 2 === 0 ? [first, second] : [second, first];
  const runId = lastRunId;
  const r = await timeOf(() => replayed(runId));
  for (const key of ["wall", "cpu"] as const) {
    plainT[key].push(p[key]);
    journaledT[key].push(jj[key]);
    replayT[key].push(r[key]);
    ratio[key].push(jj[key] / p[key]);
    overheadUs[key].push(((jj[key] - p[key]) * 1000) / EFFECTS_PER_RUN);
    replayRatio[key].push(r[key] / jj[key]);
  }
}
const before =
  statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
await journaled();
await journal.close();
const db = openSqliteJournal(file); // a checkpoint on close folds the WAL into the file
const sizeOne = statSync(file).size;
await db.close();
const runs = ROUNDS + 3;
const line = (key: "wall" | "cpu"): string =>
  `  ${key}: unjournaled ${median(plainT[key]).toFixed(1)} ms, journaled ${median(journaledT[key]).toFixed(1)} ms, replayed ${median(replayT[key]).toFixed(1)} ms; paired: journaled ${median(ratio[key]).toFixed(2)}x (${median(overheadUs[key]).toFixed(1)} µs per effect), replay ${median(replayRatio[key]).toFixed(2)}x the journaled run`;
console.log(
  [
    `store-heavy run, ${EFFECTS_PER_RUN} effects, medians of ${ROUNDS} interleaved rounds:`,
    line("wall"),
    line("cpu"),
    `  journal size: ${(sizeOne / runs / (EFFECTS_PER_RUN / 1000) / 1024).toFixed(1)} KiB per 1,000 effects (${runs} runs, ${(sizeOne / 1024).toFixed(0)} KiB; before the last checkpoint ${(before / 1024).toFixed(0)} KiB)`,
  ].join("\n"),
);
// Reopened for the benches below.
const benchJournal = openSqliteJournal(file);
afterAll(() => benchJournal.close());

describe("a store-heavy run (2,000 store effects)", () => {
  bench("unjournaled (RunPort over a MemoryStore)", plain, { iterations: 5, warmupIterations: 1 });
  bench(
    "journaled (SQLite, group commits)",
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
