import { readFileSync, rmSync } from "node:fs";
import { decodeValue, openSqliteJournal } from "@runvil/journal";
import { afterAll, describe, expect, it } from "vitest";
import {
  type CliExit,
  folderDigest,
  performedCalls,
  type ResumeProject,
  removeResumeFolders,
  resumeProject,
  seededRandom,
  spawnCli,
} from "./test-resume";

afterAll(removeResumeFolders);

/**
 * The seed of the kill instants (docs/design/resume.md "The kill test"): the same 50 kill
 * points on every run of the suite, so a failure can be reproduced.
 */
const SEED = 0x15_04;

/** Kills in all, and per chain of one run and its resumes. */
const KILLS = 50;
const KILLS_PER_CHAIN = 5;

/**
 * A store-heavy prompt: appends, edits, writes and a delete in the main chain, two tasks
 * appending to their own files at the same time, and six counted tool calls (four in the main
 * chain, one per task). Its result lists every store file with its text, so an in-memory
 * store's final contents are compared too.
 */
const BODY = `# P

## Main

\`\`\`lua
local handles = {}
for t = 1, 2 do handles[t] = tasks.spawn('### Work', t, { index = t }) end
for i = 1, 24 do
  store.append('log.txt', 'main ' .. i .. '\\n')
  if i % 6 == 0 then
    store.edit('log.txt', 'main ' .. i .. '\\n', 'MAIN ' .. i .. '\\n')
    store.write('w/' .. i .. '.txt', tools.call('count/tick', { n = i }))
  end
end
local joined = {}
for i, r in ipairs(tasks.join(handles)) do joined[i] = tostring(r.result) end
store.delete('w/6.txt')
local digest = {}
for _, path in ipairs(store.list()) do digest[#digest + 1] = path .. '=' .. store.read(path) end
return table.concat(joined, ',') .. '\\n' .. table.concat(digest, '\\n')
\`\`\`

### Work

\`\`\`lua
for i = 1, 12 do store.append('task-' .. item .. '.txt', i .. ';') end
store.write('done-' .. item .. '.txt', tools.call('count/tick', { n = 100 * item }))
return 'task ' .. item
\`\`\`
`;

const TICKS = [6, 12, 18, 24, 100, 200];

function eventCount(file: string): number {
  return readFileSync(file, "utf8").split("\n").length - 1;
}

/** What the journal holds of the run: its id, its tool calls (their `n`), its result. */
async function journaled(
  project: ResumeProject,
): Promise<{ runId?: string; ticks: number[]; result?: string }> {
  const journal = openSqliteJournal(project.journal);
  try {
    const [summary] = await journal.listRuns();
    if (summary === undefined) return { ticks: [] };
    const effects = await journal.readEffects(summary.id);
    const ticks = effects
      .filter((effect) => effect.kind === "tool" && effect.output !== undefined)
      .map((effect) => (JSON.parse(effect.request) as { arguments: { n: number } }).arguments.n);
    const run = await journal.findRun(summary.id);
    const ended = run?.result === undefined ? undefined : decodeValue(run.result);
    const result =
      run?.outcome === "succeeded" ? String((ended as { result: unknown }).result) : undefined;
    return { runId: summary.id, ticks, ...(result === undefined ? {} : { result }) };
  } finally {
    await journal.close();
  }
}

function count(list: readonly number[], n: number): number {
  return list.filter((item) => item === n).length;
}

interface ChainOutcome {
  readonly kills: number;
  readonly processes: number;
}

/**
 * One run killed at each of `targets` (a number of events reached, the run's progress) and
 * resumed after each kill, then resumed to its end. Checks after every kill that no tool call
 * the journal holds ran again, and at the end that the result and the store are the
 * uninterrupted run's.
 */
async function killChain(
  project: ResumeProject,
  memory: boolean,
  targets: readonly number[],
  reference: { result: string; store: Record<string, string> },
): Promise<ChainOutcome> {
  const storeArgs = memory ? [] : ["--store", project.store];
  const common = ["--journal", project.journal, "--events", project.events, "--json"];
  let runId: string | undefined;
  let kills = 0;
  let processes = 0;
  let last: CliExit | undefined;
  let result: string | undefined;
  /** Per tick, how often it had run when the journal first held it: never more after. */
  const atJournaling = new Map<number, number>();
  const check = async (): Promise<void> => {
    const found = await journaled(project);
    runId ??= found.runId;
    const performed = performedCalls(project.calls);
    for (const n of TICKS) {
      expect(count(found.ticks, n)).toBeLessThanOrEqual(1);
      // A call runs again only when it was in flight at a kill (it ran, its result was not
      // journaled yet): at most once more per kill, and never after the journal held it.
      expect(count(performed, n)).toBeLessThanOrEqual(1 + kills);
      if (count(found.ticks, n) === 1) {
        const then = atJournaling.get(n) ?? count(performed, n);
        atJournaling.set(n, then);
        expect(count(performed, n), `tick ${n} ran again after it was journaled`).toBe(then);
      }
    }
  };
  for (const target of [...targets, undefined]) {
    rmSync(project.events, { force: true });
    const args =
      runId === undefined
        ? ["run", project.file, ...storeArgs, ...common]
        : ["resume", runId, ...common];
    processes += 1;
    last = await spawnCli(args, {
      cwd: project.dir,
      ...(target === undefined ? {} : { killAt: { file: project.events, lines: target } }),
    });
    if (last.signal === "SIGKILL") kills += 1;
    await check();
    if (last.signal !== "SIGKILL") {
      expect(last.stderr).toBe("");
      expect(last.code).toBe(0);
      result = (JSON.parse(last.stdout) as { result?: string }).result;
      break;
    }
    // Killed after the run wrote its ending (before the process exited): nothing to resume.
    result = (await journaled(project)).result;
    if (result !== undefined) break;
  }
  expect(result).toBe(reference.result);
  if (!memory) expect(folderDigest(project.store)).toEqual(reference.store);
  // Every tool call is in the journal exactly once, and the finished record replays.
  const found = await journaled(project);
  expect([...found.ticks].sort((a, b) => a - b)).toEqual(TICKS);
  if (runId !== undefined) {
    const replay = await spawnCli(["replay", runId, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(replay.stdout).toContain(`${runId}: reproduced`);
    expect(replay.code).toBe(0);
  }
  return { kills, processes };
}

describe("kill -9 at random instants, then runvil resume (the built CLI in child processes)", () => {
  it("ends every time with the uninterrupted run's result and store, no journaled tool call run twice", {
    timeout: 600_000,
  }, async () => {
    const reference = resumeProject(BODY);
    const whole = await spawnCli(
      [
        "run",
        reference.file,
        "--store",
        reference.store,
        "--journal",
        reference.journal,
        "--events",
        reference.events,
        "--json",
      ],
      { cwd: reference.dir },
    );
    expect(whole.stderr).toBe("");
    expect(whole.code).toBe(0);
    const result = (JSON.parse(whole.stdout) as { result: string }).result;
    expect(result).toMatch(
      /^task 1,task 2\ndone-1\.txt=tick 100\ndone-2\.txt=tick 200\nlog\.txt=main 1\n/,
    );
    const store = folderDigest(reference.store);
    expect(Object.keys(store)).toHaveLength(8);
    expect([...performedCalls(reference.calls)].sort((a, b) => a - b)).toEqual(TICKS);
    const events = eventCount(reference.events);

    const random = seededRandom(SEED);
    let kills = 0;
    let chains = 0;
    let processes = 0;
    // Two chains at a time (the machine's two cores); every fourth chain on an in-memory store.
    const next = async (): Promise<void> => {
      while (kills < KILLS) {
        const index = chains;
        chains += 1;
        const wanted = Math.min(KILLS_PER_CHAIN, KILLS - kills);
        const targets = Array.from({ length: wanted }, () => 1 + Math.floor(random() * events));
        targets.sort((a, b) => a - b);
        const outcome = await killChain(resumeProject(BODY), index % 4 === 3, targets, {
          result,
          store,
        });
        kills += outcome.kills;
        processes += outcome.processes;
      }
    };
    await Promise.all([next(), next()]);
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    expect(processes).toBeGreaterThan(kills);
  });
});
