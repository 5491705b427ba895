import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQLITE_SCHEMA_VERSION } from "@runvil/journal";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";

/**
 * A journal file runvil cannot use, end to end through the CLI (docs/design/journal.md "Schema
 * and bad files"): every command names the file and what to do, exits non-zero, and leaves the
 * file as it was; the runs recorded before read and replay as before.
 */

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
return store.read('a.md')
\`\`\`
`;

/** A store-heavy prompt: 300 writes of 10 KB (3 MB of requests to record). */
const BIG = `---
name: big
description: Writes many big notes.
runvil: 0
---

# Big

\`\`\`lua
local note = string.rep('x', 10000)
for i = 1, 300 do
  store.write('notes/' .. i .. '.md', note)
end
return 'wrote 300'
\`\`\`
`;

const betterSqlite3 = createRequire(
  createRequire(import.meta.url).resolve("@runvil/journal/package.json"),
).resolve("better-sqlite3");

interface SqliteDb {
  exec(sql: string): void;
  pragma(sql: string): unknown;
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}
const Database = createRequire(import.meta.url)(betterSqlite3) as new (file: string) => SqliteDb;

interface Outcome {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function cli(args: string[]): Promise<Outcome> {
  const io = diskIo();
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

/** A folder with notes.md and big.md and a journal holding one run of notes.md. */
async function recorded(): Promise<{ folder: string; journal: string; id: string }> {
  const folder = folders.make();
  writeFileSync(join(folder, "notes.md"), NOTES);
  writeFileSync(join(folder, "big.md"), BIG);
  const journal = join(folder, "runs.db");
  expect(await cli(["run", join(folder, "notes.md"), "--journal", journal])).toEqual({
    code: 0,
    out: "alpha\n",
    err: "",
  });
  return { folder, journal, id: await onlyRunIds(journal).then((ids) => ids[0] as string) };
}

async function onlyRunIds(journal: string): Promise<string[]> {
  const listed = await cli(["runs", "list", "--journal", journal, "--json"]);
  expect(listed.code).toBe(0);
  return (JSON.parse(listed.out) as { id: string }[]).map((run) => run.id);
}

/** `runvil run`, `runs list`, `runs show ID` and `replay ID` on `journal`. */
async function everyCommand(folder: string, journal: string, id: string): Promise<Outcome[]> {
  return [
    await cli(["run", join(folder, "notes.md"), "--journal", journal]),
    await cli(["runs", "list", "--journal", journal]),
    await cli(["runs", "show", id, "--journal", journal]),
    await cli(["replay", id, "--journal", journal]),
  ];
}

/** A hash of the file and of its WAL's contents (an empty WAL is no WAL). */
function bytesOf(file: string): string {
  const hash = createHash("sha256").update(readFileSync(file));
  const wal = `${file}-wal`;
  if (existsSync(wal)) hash.update(readFileSync(wal));
  return hash.digest("hex");
}

/** Deterministic bytes (xorshift32), so a failure reproduces. */
function noise(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

async function expectReproduced(journal: string, id: string): Promise<void> {
  const replay = await cli(["replay", id, "--journal", journal]);
  expect(replay.err).toBe("");
  expect(replay.out).toMatch(new RegExp(`^${id}: reproduced `));
  expect(replay.code).toBe(0);
}

describe("a journal file runvil cannot use", () => {
  it("names a corrupt file — random bytes, cut mid-page, damaged after its header — and leaves it as it was", async () => {
    const { folder, journal, id } = await recorded();
    const good = readFileSync(journal);
    expect(good.length).toBeGreaterThan(4096 * 4);
    const variants: Record<string, Buffer> = {
      "random bytes": noise(64 * 1024, 0x9e3779b9),
      "cut mid-page": good.subarray(0, 4096 * 2 + 1000),
      "damaged after its header": Buffer.concat([
        good.subarray(0, 4096),
        noise(good.length - 4096, 0x2545f491),
      ]),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      const file = join(folder, `${name.replace(/ /g, "-")}.db`);
      writeFileSync(file, bytes);
      const before = bytesOf(file);
      for (const outcome of await everyCommand(folder, file, id)) {
        expect({ name, ...outcome, err: "" }).toEqual({ name, code: 1, out: "", err: "" });
        expect(outcome.err).toMatch(
          new RegExp(
            `^${escaped(file)}: cannot [^:]+: the file is not a Runvil journal or is damaged \\(.+\\); move it aside to start a new journal, or restore it from a copy\\n$`,
          ),
        );
      }
      expect(bytesOf(file)).toBe(before);
    }
    expect(await onlyRunIds(journal)).toEqual([id]);
    await expectReproduced(journal, id);
  });

  it("names another program's SQLite file and leaves it and its data as they were", async () => {
    const { folder, id } = await recorded();
    const file = join(folder, "songs.db");
    const db = new Database(file);
    db.exec("CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('one')");
    db.close();
    const before = bytesOf(file);
    for (const outcome of await everyCommand(folder, file, id)) {
      expect(outcome).toEqual({
        code: 1,
        out: "",
        err: `${file}: the file is an SQLite database but not a Runvil journal (it was left unchanged); name another file with --journal FILE\n`,
      });
    }
    expect(bytesOf(file)).toBe(before);
    const check = new Database(file);
    expect(check.prepare("SELECT title FROM songs").all()).toEqual([{ title: "one" }]);
    check.close();
  });

  it("names a journal of a newer schema, and its runs read again once a Runvil that knows it opens it", async () => {
    const { folder, journal, id } = await recorded();
    const db = new Database(journal);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    db.close();
    const before = bytesOf(journal);
    for (const outcome of await everyCommand(folder, journal, id)) {
      expect(outcome).toEqual({
        code: 1,
        out: "",
        err: `${journal}: the journal has schema version ${SQLITE_SCHEMA_VERSION + 1}, and this Runvil reads up to version ${SQLITE_SCHEMA_VERSION}; upgrade Runvil to read it (it was left unchanged)\n`,
      });
    }
    expect(bytesOf(journal)).toBe(before);
    const back = new Database(journal);
    back.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
    back.close();
    expect(await onlyRunIds(journal)).toEqual([id]);
    await expectReproduced(journal, id);
  });

  describe("locked by another process", () => {
    const holders: ChildProcess[] = [];
    afterEach(() => {
      for (const child of holders.splice(0)) child.kill("SIGKILL");
    });

    /** Another process that takes the lock `sql` takes and holds it until it is killed. */
    function holdLock(file: string, sql: string): Promise<ChildProcess> {
      const child = spawn(process.execPath, [
        "-e",
        `const Database = require(${JSON.stringify(betterSqlite3)}); const db = new Database(${JSON.stringify(file)}); ${sql}; console.log("ready"); setInterval(() => {}, 1000);`,
      ]);
      holders.push(child);
      return new Promise((resolve, reject) => {
        let out = "";
        let err = "";
        child.stderr?.on("data", (chunk: Buffer) => {
          err += chunk.toString();
        });
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("ready")) resolve(child);
        });
        child.on("exit", (code) => reject(new Error(`the lock holder exited (${code}): ${err}`)));
      });
    }

    it("reads while another process writes, refuses to record until it is done, and loses nothing", async () => {
      const { folder, journal, id } = await recorded();
      const writer = await holdLock(journal, 'db.exec("BEGIN IMMEDIATE")');
      // WAL readers do not wait for a writer.
      expect((await cli(["runs", "list", "--journal", journal])).code).toBe(0);
      expect((await cli(["runs", "show", id, "--journal", journal])).code).toBe(0);
      await expectReproduced(journal, id);
      // A new run waits for the lock (5 s), then runs nothing and says what to do.
      expect(await cli(["run", join(folder, "notes.md"), "--journal", journal])).toEqual({
        code: 1,
        out: "",
        err: `${journal}: cannot record a new run: another process holds a lock on the journal (database is locked); wait for it to finish, or record elsewhere with --journal FILE (or --no-record)\n`,
      });
      writer.kill("SIGKILL");
      // A process holding the journal exclusively keeps readers out too.
      await holdLock(
        journal,
        'db.pragma("locking_mode = EXCLUSIVE"); db.exec("BEGIN EXCLUSIVE"); db.exec("COMMIT")',
      );
      const list = await cli(["runs", "list", "--journal", journal]);
      expect(list).toEqual({
        code: 1,
        out: "",
        err: `${journal}: cannot open the journal: another process holds a lock on the journal (database is locked); wait for it to finish, or record elsewhere with --journal FILE (or --no-record)\n`,
      });
      for (const child of holders.splice(0)) child.kill("SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await onlyRunIds(journal)).toEqual([id]);
      await expectReproduced(journal, id);
    });
  });
});

/** A 1 MiB tmpfs for a full disk, when this process may mount one (root); else why not. */
const tmpfs = ((): { mount: string } | { reason: string } => {
  if (process.platform !== "linux") return { reason: "a tmpfs mount needs Linux" };
  const mount = mkdtempSync(join(tmpdir(), "runvil-full-disk-"));
  const done = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount], {
    encoding: "utf8",
  });
  if (done.status === 0) return { mount };
  rmSync(mount, { recursive: true, force: true });
  return { reason: `mounting a 1 MiB tmpfs needs root: ${(done.stderr ?? "").trim()}` };
})();
afterAll(() => {
  if ("mount" in tmpfs) {
    spawnSync("umount", [tmpfs.mount]);
    rmSync(tmpfs.mount, { recursive: true, force: true });
  }
});

describe.skipIf(!("mount" in tmpfs))(
  `a journal on a full disk (a 1 MiB tmpfs)${"reason" in tmpfs ? ` (skipped: ${tmpfs.reason})` : ""}`,
  () => {
    it("stops recording and says so while the run goes on, refuses to start on a full disk, and keeps every run", async () => {
      const { folder, journal, id } = await recorded();
      const disk = (tmpfs as { mount: string }).mount;
      const file = join(disk, "runs.db");
      copyFileSync(journal, file);
      // The run's 3 MB of requests do not fit: recording stops, the run does not.
      const big = await cli(["run", join(folder, "big.md"), "--journal", file]);
      expect(big.out).toBe("wrote 300\n");
      expect(big.code).toBe(0);
      const ids = await onlyRunIds(file);
      expect(ids).toHaveLength(2);
      const cut = ids[0] as string;
      expect(ids[1]).toBe(id);
      expect(big.err).toMatch(
        new RegExp(
          `^${escaped(file)}: cannot record effects \\S+ to \\S+ of run ${cut}: the disk is full \\(.+\\); free some space \\(runvil runs prune --older-than 30d removes old runs\\) and run again \\(the run went on; run ${cut}'s record ends before it\\)\\n$`,
        ),
      );
      const listed = await cli(["runs", "list", "--journal", file, "--json"]);
      const runs = JSON.parse(listed.out) as { id: string; outcome: string; effects: number }[];
      expect(runs.map((run) => run.outcome)).toEqual(["running", "succeeded"]);
      expect(runs[0]?.effects).toBeLessThan(300);
      await expectReproduced(file, id);
      // A disk with no room left at all for a journal copied there: nothing starts, and the
      // message says why (SQLite cannot even make its shared-memory file).
      for (const name of ["runs.db", "runs.db-wal", "runs.db-shm"])
        rmSync(join(disk, name), { force: true });
      copyFileSync(journal, file);
      mkdirSync(join(disk, "filler"));
      for (let i = 0; ; i++) {
        try {
          writeFileSync(join(disk, "filler", String(i)), Buffer.alloc(4096));
        } catch {
          break;
        }
      }
      const before = bytesOf(file);
      for (const args of [
        ["run", join(folder, "notes.md"), "--journal", file],
        ["runs", "list", "--journal", file],
      ]) {
        const outcome = await cli(args);
        expect({ ...outcome, err: "" }).toEqual({ code: 1, out: "", err: "" });
        expect(outcome.err).toMatch(
          new RegExp(
            `^${escaped(file)}: cannot open the journal: the disk is full \\(.+\\); free some space`,
          ),
        );
      }
      expect(bytesOf(file)).toBe(before);
      rmSync(join(disk, "filler"), { recursive: true, force: true });
      expect(await onlyRunIds(file)).toEqual([id]);
      await expectReproduced(file, id);
    });
  },
);
