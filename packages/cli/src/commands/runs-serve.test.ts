import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";
import { parsePort, serveCommand } from "./runs-serve";

const folders = tempFolders();
afterEach(() => folders.removeAll());

const NOTES = `---
name: notes
description: Writes a note.
runvil: 0
---

# Notes

\`\`\`lua
store.write('a.md', 'alpha')
return 'done'
\`\`\`
`;

async function recorded(): Promise<{ journal: string; id: string }> {
  const folder = folders.make();
  writeFileSync(join(folder, "notes.md"), NOTES);
  const journal = join(folder, "runs.db");
  expect(await runCli(["run", join(folder, "notes.md"), "--journal", journal], diskIo())).toBe(0);
  const list = diskIo();
  await runCli(["runs", "list", "--journal", journal, "--json"], list);
  return { journal, id: (JSON.parse(list.out) as { id: string }[])[0]?.id as string };
}

/** Serves until `stop()`; resolves the printed address once it is listening. */
function serving(journal: string, id?: string, port = 0) {
  const io = diskIo();
  let stop = () => {};
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const done = serveCommand({ journal, port }, io, id, until);
  const address = (async () => {
    for (let i = 0; i < 400 && io.out === "" && io.err === ""; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(io.out)?.[1];
  })();
  return { io, stop, done, address };
}

describe("runvil runs serve and runvil inspect", () => {
  it("serves the journal's runs until stopped, and says where", async () => {
    const { journal, id } = await recorded();
    const served = serving(journal);
    const address = await served.address;
    expect(served.io.out).toMatch(
      new RegExp(
        `^the inspector: http://127\\.0\\.0\\.1:\\d+/ \\(journal ${journal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}; Ctrl-C stops it\\)\\n$`,
      ),
    );
    const list = (await (await fetch(`${address}api/runs`)).json()) as { runs: { id: string }[] };
    expect(list.runs.map((r) => r.id)).toEqual([id]);
    served.stop();
    expect(await served.done).toBe(0);
    expect(served.io.err).toBe("");
  });

  it("prints the address of one run's page for runvil inspect", async () => {
    const { journal, id } = await recorded();
    const served = serving(journal, id.slice(0, 17));
    const address = await served.address;
    expect(served.io.out).toMatch(
      new RegExp(`^run ${id}: http://127\\.0\\.0\\.1:\\d+/runs/${id} `),
    );
    const page = await fetch(address as string);
    expect(page.status).toBe(200);
    served.stop();
    expect(await served.done).toBe(0);
  });

  it("names a run that does not exist", async () => {
    const { journal } = await recorded();
    const served = serving(journal, "20991231-235959-abcdef");
    expect(await served.done).toBe(1);
    expect(served.io.err).toBe(
      `${journal}: no run 20991231-235959-abcdef (runvil runs list shows the recorded runs)\n`,
    );
    expect(served.io.out).toBe("");
  });

  it("names a missing journal, and creates none", async () => {
    const journal = join(folders.make(), "none.db");
    const served = serving(journal);
    expect(await served.done).toBe(1);
    expect(served.io.err).toBe(
      `${journal}: no journal here (runs are recorded by runvil run); name one with --journal FILE\n`,
    );
  });

  it("names a corrupt journal and leaves it alone", async () => {
    const journal = join(folders.make(), "runs.db");
    writeFileSync(journal, "not a database ".repeat(100));
    const served = serving(journal);
    expect(await served.done).toBe(1);
    expect(served.io.err).toMatch(
      /^\S+runs\.db: cannot open the journal: the file is not a Runvil journal or is damaged \(.*\); move it aside to start a new journal, or restore it from a copy\n$/,
    );
    expect(served.io.err.startsWith(journal)).toBe(true);
    expect(readFileSync(journal, "utf8")).toBe("not a database ".repeat(100));
  });

  it("names a journal of a newer schema", async () => {
    const { journal } = await recorded();
    // PRAGMA user_version is the big-endian word at byte 60 of the SQLite header.
    const fd = openSync(journal, "r+");
    writeSync(fd, Buffer.from([0, 0, 0, 99]), 0, 4, 60);
    closeSync(fd);
    const served = serving(journal);
    expect(await served.done).toBe(1);
    expect(served.io.err).toMatch(
      /^\S+runs\.db: the journal has schema version 99, and this Runvil reads up to version \d+; upgrade Runvil to read it \(it was left unchanged\)\n$/,
    );
    expect(served.io.err.startsWith(`${journal}: `)).toBe(true);
  });

  it("names a port in use", async () => {
    const { journal } = await recorded();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const served = serving(journal, undefined, port);
      expect(await served.done).toBe(1);
      expect(served.io.err).toBe(
        `127.0.0.1:${port} is in use (another program, or another runvil runs serve, listens there); pass --port N for another port, or --port 0 for any free one\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it("refuses a --port that is not one", async () => {
    expect(parsePort("8080")).toBe(8080);
    expect(parsePort("0")).toBe(0);
    const io = diskIo();
    expect(await runCli(["runs", "serve", "--port", "http"], io)).toBe(2);
    expect(io.err).toBe(
      "--port must be a whole number from 0 to 65535 (0: any free port), got http\n",
    );
    expect(parsePort("70000")).toBe(
      "--port must be a whole number from 0 to 65535 (0: any free port), got 70000",
    );
  });
});
