import { readFileSync, writeFileSync } from "node:fs";
import { openSqliteJournal } from "@runvil/journal";
import { afterAll, describe, expect, it } from "vitest";
import {
  folderDigest,
  keyedCalls,
  performedCalls,
  type ResumeProject,
  removeResumeFolders,
  resumeProject,
  spawnCli,
} from "./test-resume";

afterAll(removeResumeFolders);

/** A tool call, then an operator question, then a store write of the answer. */
const ASKING = `# P

## Main

\`\`\`lua
store.write('before.txt', tools.call('count/tick', { n = 1 }))
local answer = input.ask()
store.write('answer.txt', answer)
return 'hello ' .. answer .. ' after ' .. store.read('before.txt')
\`\`\`
`;

async function onlyRun(project: ResumeProject): Promise<string> {
  const journal = openSqliteJournal(project.journal);
  try {
    const runs = await journal.listRuns();
    expect(runs).toHaveLength(1);
    return (runs[0] as { id: string }).id;
  } finally {
    await journal.close();
  }
}

/** The whole record of the run: summary, effects, events, resume count. */
async function record(project: ResumeProject, runId: string) {
  const journal = openSqliteJournal(project.journal);
  try {
    return {
      run: await journal.findRun(runId),
      effects: await journal.readEffects(runId),
      events: await journal.readEvents(runId),
      resumes: await journal.resumeCount(runId),
    };
  } finally {
    await journal.close();
  }
}

/** Runs ASKING and kills it with SIGKILL while its question is open. */
async function killedWhileAsking(): Promise<{ project: ResumeProject; runId: string }> {
  const project = resumeProject(ASKING, "[test/count, user-input]");
  const exit = await spawnCli(
    [
      "run",
      project.file,
      "--store",
      project.store,
      "--journal",
      project.journal,
      "--events",
      project.events,
      "--input",
      "stdin",
    ],
    {
      cwd: project.dir,
      signalAt: { file: project.events, text: "user-input/ask", signal: "SIGKILL" },
    },
  );
  expect(exit.signal).toBe("SIGKILL");
  return { project, runId: await onlyRun(project) };
}

describe("runvil resume (the built CLI in child processes)", () => {
  it("asks the question open at the kill again, and runs no journaled tool call twice", async () => {
    const { project, runId } = await killedWhileAsking();
    expect(performedCalls(project.calls)).toEqual([1]);
    expect(await record(project, runId)).toMatchObject({ run: { outcome: "running" } });
    // The run had an operator: the resume reads the answer from stdin without --input.
    const exit = await spawnCli(["resume", runId.slice(0, 18), "--journal", project.journal], {
      cwd: project.dir,
      input: "Ada\n",
    });
    expect(exit).toMatchObject({ code: 0, stdout: "hello Ada after tick 1\n" });
    // The write before the question is journaled when its batch was written (5 ms) before
    // the kill: answered then, else applied again (its intent shows the file unchanged).
    expect(exit.stderr).toMatch(
      new RegExp(
        `^resumed ${runId}: ([12]) effects answered by the journal, ([34]) run live(, 1 store changes found applied)?\n$`,
      ),
    );
    const [, answered, live] = /: (\d) effects .* (\d) run live/.exec(exit.stderr) ?? [];
    expect(Number(answered) + Number(live)).toBe(5);
    expect(performedCalls(project.calls)).toEqual([1]);
    expect(folderDigest(project.store)).toEqual({
      "answer.txt": "Ada",
      "before.txt": "tick 1",
    });
    const after = await record(project, runId);
    expect(after.run).toMatchObject({ outcome: "succeeded", toolCalls: 2, effects: 5 });
    expect(after.resumes).toBe(1);
    const replay = await spawnCli(["replay", runId, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(replay.stdout).toContain(`${runId}: reproduced`);
  });

  it("lends a tool call the same effect id and run id when the resume performs it again", async () => {
    const project = resumeProject(
      `# P

## Main

\`\`\`lua
local a = tools.call('count/keyed', { n = 1 })
local b = tools.call('count/keyed', { n = 2 })
return a .. ' | ' .. b
\`\`\`
`,
    );
    writeFileSync(project.hold, "2");
    const killed = await spawnCli(["run", project.file, "--journal", project.journal], {
      cwd: project.dir,
      signalAt: { file: project.keyed, text: '"n":2', signal: "SIGKILL" },
    });
    expect(killed.signal).toBe("SIGKILL");
    const runId = await onlyRun(project);
    const first = keyedCalls(project.keyed);
    expect(first).toEqual([
      { n: 1, runId, effectId: "0.1/1" },
      { n: 2, runId, effectId: "0.1/2" },
    ]);
    // The first call's effect id is the one its journal record carries (a replay answers it).
    expect((await record(project, runId)).effects.map((e) => e.effect)).toContain("0.1/1");

    writeFileSync(project.hold, "");
    const resumed = await spawnCli(["resume", runId, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(resumed).toMatchObject({ code: 0, stdout: "keyed 1 0.1/1 | keyed 2 0.1/2\n" });
    // Only the call in flight at the kill runs again, with the ids it had the first time.
    expect(keyedCalls(project.keyed)).toEqual([...first, { n: 2, runId, effectId: "0.1/2" }]);
    const after = await record(project, runId);
    expect(after.effects.map((e) => e.effect).sort()).toEqual(["0.1/1", "0.1/2"]);
  });

  it("reports a changed prompt as a divergence and leaves the record as it was", async () => {
    const { project, runId } = await killedWhileAsking();
    const before = await record(project, runId);
    writeFileSync(
      project.file,
      readFileSync(project.file, "utf8").replace("{ n = 1 }", "{ n = 7 }"),
    );
    const exit = await spawnCli(["resume", runId, "--journal", project.journal, "--json"], {
      cwd: project.dir,
    });
    expect(exit.code).toBe(1);
    const report = JSON.parse(exit.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      outcome: "diverged",
      run: runId,
      divergence: { kind: "changed_request", effect: "0.1/1", place: { section: "Main" } },
    });
    const text = await spawnCli(["resume", runId, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      `${runId}: diverged at effect 0.1/1 in section "Main", block section \`Main\` prologue (entry 0.1, chain 0)`,
    );
    expect(text.stderr).toContain(
      `${runId}: not resumed: the prompt or the Engine changed since the recording (the record was left as it was)`,
    );
    expect(performedCalls(project.calls)).toEqual([1]);
    expect(await record(project, runId)).toEqual(before);
  });

  it("continues a stopped run (SIGTERM) to the uninterrupted run's store and result", async () => {
    const body = `# P

## Main

\`\`\`lua
for i = 1, 40 do
  store.append('log.txt', i .. '\\n')
  if i % 10 == 0 then store.write('t' .. i .. '.txt', tools.call('count/tick', { n = i })) end
end
return store.read('log.txt'):len() .. ' ' .. #store.list()
\`\`\`
`;
    const reference = resumeProject(body);
    const whole = await spawnCli(
      ["run", reference.file, "--store", reference.store, "--no-record"],
      {
        cwd: reference.dir,
      },
    );
    expect(whole).toMatchObject({ code: 0, stdout: "111 5\n" });
    const project = resumeProject(body);
    const stopped = await spawnCli(
      [
        "run",
        project.file,
        "--store",
        project.store,
        "--journal",
        project.journal,
        "--events",
        project.events,
      ],
      {
        cwd: project.dir,
        signalAt: { file: project.events, text: '"seq":40,', signal: "SIGTERM" },
      },
    );
    expect(stopped).toMatchObject({ code: 143, stderr: "run stopped\n" });
    const runId = await onlyRun(project);
    expect(await record(project, runId)).toMatchObject({ run: { outcome: "cancelled" } });
    const exit = await spawnCli(["resume", runId, "--journal", project.journal, "--json"], {
      cwd: project.dir,
    });
    expect(exit.stderr).toBe("");
    expect(exit.code).toBe(0);
    expect(JSON.parse(exit.stdout)).toMatchObject({
      outcome: "succeeded",
      result: "111 5",
      resumed: { run: runId },
    });
    expect(folderDigest(project.store)).toEqual(folderDigest(reference.store));
    // A tick runs twice only when the stop aborted its call while it ran (the stop does not
    // wait for a tool that does not survive it): the journal kept no answer for it.
    const performed = performedCalls(project.calls);
    expect([...new Set(performed)]).toEqual([10, 20, 30, 40]);
    expect(performed.length).toBeLessThanOrEqual(5);
    const replay = await spawnCli(["replay", runId, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(replay.stdout).toContain(`${runId}: reproduced`);
  });

  it("refuses a run that already ended, naming the journal, and leaves its record untouched", async () => {
    const project = resumeProject(
      "# P\n\n```lua\nreturn tools.call('count/tick', { n = 3 })\n```\n",
    );
    const ran = await spawnCli(["run", project.file, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(ran).toMatchObject({ code: 0, stdout: "tick 3\n" });
    const runId = await onlyRun(project);
    const before = await record(project, runId);
    const exit = await spawnCli(["resume", runId, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(exit.code).toBe(1);
    expect(exit.stdout).toBe("");
    expect(exit.stderr).toMatch(
      new RegExp(
        `^runs\\.db: run ${runId} already ended \\(succeeded at \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\\), so there is nothing to resume; runvil replay ${runId} reproduces it, runvil run starts a new run \\(the record was left unchanged\\)\\n$`,
      ),
    );
    expect(await record(project, runId)).toEqual(before);
    expect(performedCalls(project.calls)).toEqual([3]);
  });

  it("names an unknown run id, a missing journal and one that cannot be opened", async () => {
    const project = resumeProject("# P\n\n```lua\nreturn 1\n```\n");
    const ran = await spawnCli(["run", project.file, "--journal", project.journal], {
      cwd: project.dir,
    });
    expect(ran.code).toBe(0);
    const unknown = await spawnCli(
      ["resume", "20990101-000000-abcdef", "--journal", project.journal],
      { cwd: project.dir },
    );
    expect(unknown).toMatchObject({
      code: 1,
      stderr: "runs.db: no run 20990101-000000-abcdef (runvil runs list shows the recorded runs)\n",
    });
    const missing = await spawnCli(["resume", "20990101", "--journal", "other.db"], {
      cwd: project.dir,
    });
    expect(missing).toMatchObject({
      code: 1,
      stderr:
        "other.db: no journal here (runs are recorded by runvil run); name one with --journal FILE\n",
    });
    writeFileSync(`${project.dir}/broken.db`, "not a database at all, just text ".repeat(200));
    const broken = await spawnCli(["resume", "20990101", "--journal", "broken.db"], {
      cwd: project.dir,
    });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      "broken.db: cannot open the journal: the file is not a Runvil journal or is damaged",
    );
    expect(readFileSync(`${project.dir}/broken.db`, "utf8")).toBe(
      "not a database at all, just text ".repeat(200),
    );
  });
});
