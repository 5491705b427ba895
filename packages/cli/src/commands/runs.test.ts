import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";

const folders = tempFolders();
afterEach(() => folders.removeAll());

const NOTES = `---
name: notes
description: Writes a note and reads it back.
runvil: 0
---

# Notes

\`\`\`lua
store.write('a.md', 'alpha')
log('wrote a')
\`\`\`

## Read

\`\`\`lua
local text = store.read('a.md')
local ok = pcall(store.read, 'missing.md')
return text .. (ok and '!' or '?')
\`\`\`
`;

async function recorded(folder: string, prompt = NOTES) {
  const file = join(folder, "notes.md");
  writeFileSync(file, prompt);
  const journal = join(folder, "runs.db");
  const io = diskIo();
  const code = await runCli(["run", file, "--journal", journal, "--seed", "3"], io);
  return { file, journal, io, code };
}

async function onlyRunId(journal: string): Promise<string> {
  const io = diskIo();
  expect(await runCli(["runs", "list", "--journal", journal, "--json"], io)).toBe(0);
  const runs = JSON.parse(io.out) as { id: string }[];
  expect(runs).toHaveLength(1);
  return (runs[0] as { id: string }).id;
}

describe("runvil run records into the journal", () => {
  it("records by default, and --no-record records nothing", async () => {
    const folder = folders.make();
    const { journal, io, code } = await recorded(folder);
    expect(code).toBe(0);
    expect(io.out).toBe("alpha?\n");
    expect(io.err).toBe("");
    const id = await onlyRunId(journal);
    expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    const other = diskIo();
    expect(
      await runCli(["run", join(folder, "notes.md"), "--journal", journal, "--no-record"], other),
    ).toBe(0);
    expect(await onlyRunId(journal)).toBe(id);
  });

  it("names a corrupt journal and what to do, runs nothing, and leaves the file alone", async () => {
    const folder = folders.make();
    const journal = join(folder, "runs.db");
    writeFileSync(journal, "not a database ".repeat(100));
    writeFileSync(join(folder, "notes.md"), NOTES);
    const io = diskIo();
    expect(await runCli(["run", join(folder, "notes.md"), "--journal", journal], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toMatch(
      new RegExp(
        `^${journal.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: cannot open the journal: the file is not a Runvil journal or is damaged \\(.*\\); move it aside to start a new journal, or restore it from a copy\\n$`,
      ),
    );
    expect(readFileSync(journal, "utf8")).toBe("not a database ".repeat(100));
    const list = diskIo();
    expect(await runCli(["runs", "list", "--journal", journal], list)).toBe(1);
    expect(list.err).toContain(
      `${journal}: cannot open the journal: the file is not a Runvil journal`,
    );
  });
});

describe("runvil runs", () => {
  it("lists runs with their columns, as a table and as JSON", async () => {
    const folder = folders.make();
    const { journal } = await recorded(folder);
    const io = diskIo();
    expect(await runCli(["runs", "list", "--journal", journal], io)).toBe(0);
    const [header, row] = io.out.split("\n");
    expect(header).toMatch(
      /^ID +PROMPT +STARTED +DURATION +OUTCOME +RESUMES +ROUNDS +TOOLS +TOKENS$/,
    );
    expect(row).toMatch(
      /^\d{8}-\d{6}-[0-9a-f]{6} +\S*notes\.md +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +[\d.]+ (µs|ms|s) +succeeded +0 +0 +0 +0$/,
    );
    const json = diskIo();
    expect(await runCli(["runs", "list", "--journal", journal, "--json"], json)).toBe(0);
    expect(JSON.parse(json.out)).toEqual([
      expect.objectContaining({
        outcome: "succeeded",
        effects: 3,
        modelRounds: 0,
        toolCalls: 0,
        events: expect.any(Number),
        errorKind: null,
        resumes: 0,
      }),
    ]);
  });

  it("says so when nothing was recorded yet", async () => {
    const folder = folders.make();
    const io = diskIo();
    expect(await runCli(["runs", "list", "--journal", join(folder, "none.db")], io)).toBe(0);
    expect(io.out).toBe(`no runs recorded (no journal at ${join(folder, "none.db")})\n`);
  });

  it("shows a run's timeline: its sections, their effects, the ending", async () => {
    const folder = folders.make();
    const { journal } = await recorded(folder);
    const id = await onlyRunId(journal);
    const io = diskIo();
    expect(await runCli(["runs", "show", id.slice(0, 15), "--journal", journal], io)).toBe(0);
    const lines = io.out.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^run ${id} · \\S*notes\\.md · succeeded · `));
    expect(lines[1]).toMatch(/^started .* · seed 3 · args "" · prompt sha256:[0-9a-f]{64}$/);
    expect(lines[2]).toMatch(/^3 effects · 0 model rounds · 0 tool calls · 0 tokens · \d+ events$/);
    expect(lines[3]).toBe("Notes (entry 0.0, h1)");
    expect(lines[4]).toMatch(/^ {2}0\.0\/1 {2}store write a\.md · [\d.]+ (µs|ms)$/);
    expect(lines[5]).toBe("Read (entry 0.1, walk)");
    expect(lines[6]).toMatch(/^ {2}0\.1\/1 {2}store read a\.md · /);
    expect(lines[7]).toMatch(
      /^ {2}0\.1\/2 {2}store read missing\.md · .* · failed: missing\.md: not found$/,
    );
    expect(lines[8]).toBe("result: alpha?");
    const json = diskIo();
    expect(await runCli(["runs", "show", id, "--journal", journal, "--json"], json)).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      id,
      seed: "3",
      ending: "result: alpha?",
      entries: [{ section: "Notes" }, { section: "Read" }],
    });
  });

  it("prints a run's events as the JSON Lines the run emitted (the same as --events)", async () => {
    const folder = folders.make();
    const file = join(folder, "notes.md");
    writeFileSync(file, NOTES);
    const journal = join(folder, "runs.db");
    const eventsFile = join(folder, "events.jsonl");
    expect(
      await runCli(["run", file, "--journal", journal, "--events", eventsFile], diskIo()),
    ).toBe(0);
    const io = diskIo();
    expect(
      await runCli(["runs", "events", await onlyRunId(journal), "--journal", journal], io),
    ).toBe(0);
    expect(io.out).toBe(readFileSync(eventsFile, "utf8"));
  });

  it("names an id that does not exist", async () => {
    const folder = folders.make();
    const { journal } = await recorded(folder);
    for (const command of ["show", "events"]) {
      const io = diskIo();
      expect(
        await runCli(["runs", command, "19990101-000000-abcdef", "--journal", journal], io),
      ).toBe(1);
      expect(io.err).toBe(
        `${journal}: no run 19990101-000000-abcdef (runvil runs list shows the recorded runs)\n`,
      );
    }
  });

  it("prunes runs older than an age, and refuses an age it cannot read", async () => {
    const folder = folders.make();
    const { journal } = await recorded(folder);
    const keep = diskIo();
    expect(await runCli(["runs", "prune", "--older-than", "30d", "--journal", journal], keep)).toBe(
      0,
    );
    expect(keep.out).toMatch(/^pruned 0 runs started before .*Z from /);
    const all = diskIo();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      await runCli(["runs", "prune", "--older-than", "0s", "--journal", journal, "--json"], all),
    ).toBe(0);
    expect(JSON.parse(all.out)).toMatchObject({ pruned: 1 });
    const bad = diskIo();
    expect(
      await runCli(["runs", "prune", "--older-than", "a month", "--journal", journal], bad),
    ).toBe(2);
    expect(bad.err).toBe(
      "--older-than must be a whole number and a unit (s, m, h, d, w), such as 30d; got a month\n",
    );
  });
});

describe("runvil replay", () => {
  it("reproduces a recorded run from the journal alone", async () => {
    const folder = folders.make();
    const { journal } = await recorded(folder);
    const id = await onlyRunId(journal);
    const io = diskIo();
    expect(await runCli(["replay", id, "--journal", journal], io)).toBe(0);
    expect(io.out).toMatch(
      new RegExp(
        `^${id}: reproduced \\(3 effects answered by the journal, \\d+ events identical, the same result\\)\\n$`,
      ),
    );
  });

  it("reports the first divergence of a changed prompt, naming the effect, and exits 1", async () => {
    const folder = folders.make();
    const { journal, file } = await recorded(folder);
    const id = await onlyRunId(journal);
    writeFileSync(file, NOTES.replace("store.read('a.md')", "store.read('b.md')"));
    const io = diskIo();
    expect(await runCli(["replay", id, "--journal", journal], io)).toBe(1);
    expect(io.out).toBe(
      [
        `${id}: note: the prompt file ${file} changed since the recording; replaying the file as it is now (--recorded replays the recorded text)`,
        `${id}: diverged at effect 0.1/1 in section "Read", block section \`Read\` prologue at lines 17-19 (entry 0.1, chain 0): the run asks for another store request than the recording`,
        `  recorded: store {"op":"read","path":"a.md"}`,
        `  now:      store {"op":"read","path":"b.md"}`,
        "",
      ].join("\n"),
    );
    const recordedText = diskIo();
    expect(await runCli(["replay", id, "--journal", journal, "--recorded"], recordedText)).toBe(0);
    expect(recordedText.out).toContain(`${id}: reproduced (`);
  });

  it("reports a changed log message as a changed event", async () => {
    const folder = folders.make();
    const { journal, file } = await recorded(folder);
    const id = await onlyRunId(journal);
    writeFileSync(file, NOTES.replace("log('wrote a')", "log('wrote A')"));
    const io = diskIo();
    expect(await runCli(["replay", id, "--journal", journal, "--json"], io)).toBe(1);
    expect(JSON.parse(io.out)).toEqual([
      expect.objectContaining({
        run: id,
        kind: "diverged",
        divergence: expect.objectContaining({
          kind: "changed_event",
          place: expect.objectContaining({ section: "Notes" }),
        }),
      }),
    ]);
  });

  it("replays every run of a folder's journal and sums up", async () => {
    const folder = folders.make();
    const file = join(folder, "notes.md");
    writeFileSync(file, NOTES);
    writeFileSync(join(folder, "runvil.config.json"), '{ "plugins": [] }\n');
    const saved = process.env.RUNVIL_JOURNAL;
    delete process.env.RUNVIL_JOURNAL;
    const io = diskIo();
    try {
      // No --journal: .runvil/runs.db beside the folder's runvil.config.json.
      expect(await runCli(["run", file], diskIo())).toBe(0);
      expect(await runCli(["run", file, "--args", "x"], diskIo())).toBe(0);
      expect(await runCli(["replay", folder], io)).toBe(0);
    } finally {
      if (saved !== undefined) process.env.RUNVIL_JOURNAL = saved;
    }
    expect(io.out).toMatch(
      /^\S+: reproduced [^\n]*\n\S+: reproduced [^\n]*\n2 of 2 runs reproduced\n$/,
    );
  });

  it("names a run id that does not exist, and a missing journal", async () => {
    const folder = folders.make();
    const { journal } = await recorded(folder);
    const io = diskIo();
    expect(await runCli(["replay", "19990101-000000-abcdef", "--journal", journal], io)).toBe(1);
    expect(io.err).toBe(
      `${journal}: no run 19990101-000000-abcdef (runvil runs list shows the recorded runs)\n`,
    );
    const none = diskIo();
    expect(await runCli(["replay", "--all", "--journal", join(folder, "none.db")], none)).toBe(1);
    expect(none.err).toBe(
      `${join(folder, "none.db")}: no journal here (runs are recorded by runvil run); name one with --journal FILE\n`,
    );
  });
});
