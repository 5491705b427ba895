import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EVENT_COMMIT_MS, GROUP_COMMIT_CHARS, GROUP_COMMIT_EFFECTS } from "../journal";
import { JournalError } from "../journal-error";
import { sleeper } from "../test-sleeper";
import { describeJournalContract } from "../testing";
import { contractEffect, contractEvent, contractInputs } from "../testing/journal-contract";
import { JOURNAL_APPLICATION_ID, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION } from "./schema";
import { openSqliteJournal } from "./sqlite-journal";

const folders: string[] = [];

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "runvil-journal-"));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describeJournalContract("SQLite", async () => {
  const folder = mkdtempSync(join(tmpdir(), "runvil-journal-contract-"));
  const file = join(folder, ".runvil", "runs.db");
  return {
    journal: openSqliteJournal(file),
    openAnother: async () => openSqliteJournal(file),
    cleanup: async () => rmSync(folder, { recursive: true, force: true }),
  };
});

const sqlitePath = createRequire(import.meta.url).resolve("better-sqlite3");

/** Runs `source` in another Node process that has better-sqlite3 as `Database`; resolves when it printed `ready`. */
function otherProcess(source: string): { ready: Promise<void>; done: Promise<number> } {
  const child = spawn(process.execPath, [
    "-e",
    `const Database = require(${JSON.stringify(sqlitePath)});\n${source}`,
  ]);
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready")) resolve();
    });
    child.on("exit", (code) =>
      reject(new Error(`the other process exited (${code}) before it was ready`)),
    );
  });
  const done = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return { ready, done };
}

async function failureOf(work: () => unknown): Promise<JournalError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof JournalError) return error;
    throw error;
  }
  throw new Error("expected a JournalError");
}

describe("the SQLite journal file", () => {
  it("is in WAL mode with the current schema version", () => {
    const file = join(tempFolder(), "runs.db");
    openSqliteJournal(file).close();
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    db.close();
  });

  it("migrates a journal of schema version 1, keeping its runs", async () => {
    const file = join(tempFolder(), "runs.db");
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const db = new Database(file);
    db.exec(SQLITE_MIGRATIONS[0] as string);
    db.pragma(`application_id = ${JOURNAL_APPLICATION_ID}`);
    db.pragma("user_version = 1");
    db.prepare(
      "INSERT INTO runs (id, prompt_path, prompt_hash, prompt, args, seed, started_at, host, bindings, versions) VALUES ('20270115-080000-abcdef', 'old.md', 'sha256:0', x'23', '', '0', 1800000000000, 'null', '{}', '{}')",
    ).run();
    db.prepare(
      `INSERT INTO effects (run_id, effect, kind, origin, request, issued, arrival, started_us, duration_us, output) VALUES ('20270115-080000-abcdef', '0/1', 'store', '${JSON.stringify(contractEffect(1).origin)}', '{}', 1, 1, 0, 1, '{"$undefined":true}')`,
    ).run();
    db.close();
    const journal = openSqliteJournal(file);
    expect((await journal.findRun("20270115-080000-abcdef"))?.promptPath).toBe("old.md");
    expect((await journal.readEffects("20270115-080000-abcdef"))[0]?.eventsBefore).toBe(0);
    await journal.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    check.close();
  });

  it("reads the runs of a schema version 2 journal after migrating it, beside new ones", async () => {
    const file = join(tempFolder(), "runs.db");
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const db = new Database(file);
    db.exec(SQLITE_MIGRATIONS[0] as string);
    db.exec(SQLITE_MIGRATIONS[1] as string);
    db.pragma(`application_id = ${JOURNAL_APPLICATION_ID}`);
    db.pragma("user_version = 2");
    const old = "20270115-080000-abcdef";
    db.prepare(
      `INSERT INTO runs (id, prompt_path, prompt_hash, prompt, args, seed, started_at, host, bindings, versions) VALUES ('${old}', 'old.md', 'sha256:0', x'23', '', '0', 1800000000000, 'null', '{}', '{}')`,
    ).run();
    const effects = [contractEffect(1), contractEffect(2, { kind: "tool" })];
    for (const effect of effects)
      db.prepare(
        "INSERT INTO effects (run_id, effect, kind, origin, request, issued, arrival, started_us, duration_us, output, events_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(
        old,
        effect.effect,
        effect.kind,
        JSON.stringify(effect.origin),
        effect.request,
        effect.issued,
        effect.arrival,
        effect.startedUs,
        effect.durationUs,
        effect.output,
        effect.eventsBefore,
      );
    const events = [contractEvent(1), contractEvent(2)];
    for (const event of events)
      db.prepare("INSERT INTO events (run_id, seq, type, chain, line) VALUES (?, ?, ?, ?, ?)").run(
        old,
        event.seq,
        event.type,
        event.chain,
        event.line,
      );
    db.close();
    const journal = openSqliteJournal(file);
    const recorder = await journal.startRun(contractInputs(1_800_000_100_000));
    recorder.recordEvent(contractEvent(1));
    recorder.recordEffect(contractEffect(1));
    expect(await journal.readEffects(old)).toEqual(effects);
    expect(await journal.readEvents(old)).toEqual(events);
    expect(await journal.readEffects(recorder.runId)).toEqual([contractEffect(1)]);
    const runs = await journal.listRuns();
    expect(runs.map((run) => [run.id, run.effects, run.toolCalls, run.events])).toEqual([
      [recorder.runId, 1, 0, 1],
      [old, 2, 1, 2],
    ]);
    expect(await journal.pruneRuns(1_900_000_000_000)).toBe(2);
    await journal.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    for (const table of ["runs", "effects", "events", "batches"])
      expect(check.prepare(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    check.close();
  });

  it("writes a group commit once it holds 64 effects or 1 Mi characters, not waiting for its timer", async () => {
    const journal = openSqliteJournal(join(tempFolder(), "runs.db"));
    const small = await journal.startRun(contractInputs(1_800_000_000_000));
    for (let n = 1; n < GROUP_COMMIT_EFFECTS; n++) small.recordEffect(contractEffect(n), false);
    expect(await journal.readEffects(small.runId)).toEqual([]);
    small.recordEffect(contractEffect(GROUP_COMMIT_EFFECTS), false);
    expect(await journal.readEffects(small.runId)).toHaveLength(GROUP_COMMIT_EFFECTS);
    const large = await journal.startRun(contractInputs(1_800_000_001_000));
    const output = JSON.stringify("y".repeat(Math.ceil(GROUP_COMMIT_CHARS / 4)));
    for (let n = 1; n <= 3; n++) large.recordEffect(contractEffect(n, { output }), false);
    expect(await journal.readEffects(large.runId)).toEqual([]);
    large.recordEffect(contractEffect(4, { output }), false);
    expect((await journal.readEffects(large.runId)).map((effect) => effect.output)).toEqual([
      output,
      output,
      output,
      output,
    ]);
    await journal.close();
  });

  it("commits events that waited past the event window while the thread was held (a long Lua block)", async () => {
    const journal = openSqliteJournal(join(tempFolder(), "runs.db"));
    const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
    recorder.recordEvent(contractEvent(1));
    recorder.recordEvent(contractEvent(2));
    expect(await journal.readEvents(recorder.runId)).toEqual([]);
    // The thread is held (no timer can fire), as by a Lua block that runs for a while.
    const held = performance.now();
    while (performance.now() - held < EVENT_COMMIT_MS + 10) {}
    recorder.recordEvent(contractEvent(3));
    expect((await journal.readEvents(recorder.runId)).map((event) => event.seq)).toEqual([1, 2, 3]);
    // The next events start a new window.
    recorder.recordEvent(contractEvent(4));
    expect(await journal.readEvents(recorder.runId)).toHaveLength(3);
    await journal.close();
  });

  it.skipIf(process.platform !== "linux")(
    "refuses to resume a run another live process records, and takes it over once that process is gone",
    async () => {
      const file = join(tempFolder(), "runs.db");
      const journal = openSqliteJournal(file);
      const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
      await recorder.recordEffect(contractEffect(1));
      // The run's recorder is another process, still running.
      const other = await sleeper();
      const owner = JSON.stringify({ pid: other.pid, host: hostname(), started: other.started });
      const db = new (createRequire(import.meta.url)("better-sqlite3"))(file);
      db.prepare("UPDATE runs SET owner = ? WHERE id = ?").run(owner, recorder.runId);
      db.close();
      const before = await journal.findRun(recorder.runId);
      const refused = await failureOf(() => journal.claimRun(recorder.runId));
      expect(refused.reason).toBe("running");
      expect(refused.message).toBe(
        `${file}: run ${recorder.runId} is still being recorded by process ${other.pid} on ${hostname()}, so it was not resumed (it would run twice); wait for it to end, or stop it (kill -TERM ${other.pid}) and resume it then (the record was left unchanged)`,
      );
      expect((await failureOf(() => journal.resumeRun(recorder.runId))).reason).toBe("running");
      expect(await journal.findRun(recorder.runId)).toEqual(before);
      // Killed: the run is stale, and this process takes it over.
      await other.kill();
      await journal.claimRun(recorder.runId);
      expect((await journal.findRun(recorder.runId))?.owner?.pid).toBe(process.pid);
      await journal.close();
    },
  );

  it("refuses a run recorded on another host unless forced", async () => {
    const file = join(tempFolder(), "runs.db");
    const journal = openSqliteJournal(file);
    const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
    const owner = JSON.stringify({ pid: 4242, host: "build-7", started: "ms:1" });
    const db = new (createRequire(import.meta.url)("better-sqlite3"))(file);
    db.prepare("UPDATE runs SET owner = ? WHERE id = ?").run(owner, recorder.runId);
    db.close();
    const refused = await failureOf(() => journal.claimRun(recorder.runId));
    expect(refused.reason).toBe("running");
    expect(refused.message).toBe(
      `${file}: run ${recorder.runId} is being recorded by process 4242 on build-7, and ${hostname()} cannot tell whether that process still runs, so it was not resumed; resume it on build-7, or pass --force once you know that process ended (the record was left unchanged)`,
    );
    await journal.claimRun(recorder.runId, { force: true });
    expect((await journal.findRun(recorder.runId))?.owner?.host).toBe(hostname());
    await journal.close();
  });

  it("names a run whose recorded batch is damaged, and still reads the others", async () => {
    const file = join(tempFolder(), "runs.db");
    const journal = openSqliteJournal(file);
    const damaged = await journal.startRun(contractInputs(1_800_000_000_000));
    damaged.recordEffect(contractEffect(1));
    const fine = await journal.startRun(contractInputs(1_800_000_001_000));
    fine.recordEffect(contractEffect(1));
    await journal.close();
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const db = new Database(file);
    db.prepare("UPDATE batches SET effect_text = substr(effect_text, 1, 40) WHERE run_id = ?").run(
      damaged.runId,
    );
    db.close();
    const reopened = openSqliteJournal(file);
    const error = await failureOf(() => reopened.readEffects(damaged.runId));
    expect(error.reason).toBe("corrupt");
    expect(error.message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: the records of run ${damaged.runId} are damaged \\(a field cut short at character \\d+\\); restore the journal from a copy \\(its other runs read as before\\)$`,
      ),
    );
    expect(await reopened.readEffects(fine.runId)).toEqual([contractEffect(1)]);
    await reopened.close();
  });

  it("refuses a corrupt file, naming it, and leaves it as it was", async () => {
    const file = join(tempFolder(), "runs.db");
    const junk = "this is not a database, just text that happens to be here\n".repeat(200);
    writeFileSync(file, junk);
    const error = await failureOf(() => openSqliteJournal(file));
    expect(error.reason).toBe("corrupt");
    expect(error.message).toContain(file);
    expect(error.message).toContain("move it aside");
    expect(readFileSync(file, "utf8")).toBe(junk);
  });

  it("refuses another program's SQLite database without changing it", async () => {
    const file = join(tempFolder(), "other.db");
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const db = new Database(file);
    db.exec("CREATE TABLE songs (title TEXT)");
    db.close();
    const before = readFileSync(file);
    const error = await failureOf(() => openSqliteJournal(file));
    expect(error.reason).toBe("corrupt");
    expect(error.message).toBe(
      `${file}: the file is an SQLite database but not a Runvil journal (it was left unchanged); name another file with --journal FILE`,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("refuses a journal of a newer schema and leaves it unchanged", async () => {
    const file = join(tempFolder(), "runs.db");
    const journal = openSqliteJournal(file);
    const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
    await journal.close();
    const Database = createRequire(import.meta.url)("better-sqlite3");
    const db = new Database(file);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    const error = await failureOf(() => openSqliteJournal(file));
    expect(error.reason).toBe("newer_schema");
    expect(error.message).toBe(
      `${file}: the journal has schema version ${SQLITE_SCHEMA_VERSION + 1}, and this Runvil reads up to version ${SQLITE_SCHEMA_VERSION}; upgrade Runvil to read it (it was left unchanged)`,
    );
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT id FROM runs").all()).toEqual([{ id: recorder.runId }]);
    check.close();
  });

  it("fails `locked` naming the file when another process holds the write lock too long", async () => {
    const file = join(tempFolder(), "runs.db");
    const journal = openSqliteJournal(file, { busyTimeoutMs: 200 });
    const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
    const other = otherProcess(
      `const db = new Database(${JSON.stringify(file)}); db.exec("BEGIN IMMEDIATE"); console.log("ready"); setTimeout(() => { db.exec("ROLLBACK"); db.close(); }, 2000);`,
    );
    await other.ready;
    const error = await failureOf(() => recorder.recordEffect(contractEffect(1)));
    expect(error.reason).toBe("locked");
    expect(error.message).toContain(`${file}: cannot record effect 0.2/1 of run ${recorder.runId}`);
    expect(error.message).toContain("another process holds a lock");
    expect(await other.done).toBe(0);
    // Once the lock is gone, the same effect records, and nothing before it was lost.
    recorder.recordEffect(contractEffect(1));
    expect(await journal.readEffects(recorder.runId)).toEqual([contractEffect(1)]);
    await journal.close();
  });

  it("waits for a short lock of another process instead of failing", async () => {
    const file = join(tempFolder(), "runs.db");
    const journal = openSqliteJournal(file, { busyTimeoutMs: 5000 });
    const recorder = await journal.startRun(contractInputs(1_800_000_000_000));
    const other = otherProcess(
      `const db = new Database(${JSON.stringify(file)}); db.exec("BEGIN IMMEDIATE"); console.log("ready"); setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);`,
    );
    await other.ready;
    recorder.recordEffect(contractEffect(1));
    expect(await journal.readEffects(recorder.runId)).toHaveLength(1);
    expect(await other.done).toBe(0);
    await journal.close();
  });

  it("fails `full` when the disk is full, keeping every run recorded before", async () => {
    const file = join(tempFolder(), "runs.db");
    const first = openSqliteJournal(file);
    const kept = await first.startRun(contractInputs(1_800_000_000_000));
    kept.recordEffect(contractEffect(1));
    await first.close();
    const pages = Number(
      (() => {
        const Database = createRequire(import.meta.url)("better-sqlite3");
        const db = new Database(file, { readonly: true });
        const count = db.pragma("page_count", { simple: true });
        db.close();
        return count;
      })(),
    );
    const journal = openSqliteJournal(file, { maxPageCount: pages + 2 });
    const recorder = await journal.startRun(contractInputs(1_800_000_001_000));
    const big = contractEffect(1, { output: JSON.stringify("x".repeat(100_000)) });
    const error = await failureOf(() => recorder.recordEffect(big));
    expect(error.reason).toBe("full");
    expect(error.message).toContain(
      `${file}: cannot record effect 0.2/1 of run ${recorder.runId}: the disk is full`,
    );
    expect(error.message).toContain("runvil runs prune --older-than 30d");
    expect(await journal.readEffects(kept.runId)).toEqual([contractEffect(1)]);
    expect(await journal.readEffects(recorder.runId)).toEqual([]);
    await journal.close();
  });

  it("cannot be opened where its folder cannot be made, and says so", async () => {
    const folder = tempFolder();
    writeFileSync(join(folder, "file"), "");
    const error = await failureOf(() => openSqliteJournal(join(folder, "file", "runs.db")));
    expect(error.reason).toBe("unavailable");
    expect(error.message).toContain(join(folder, "file", "runs.db"));
  });
});
