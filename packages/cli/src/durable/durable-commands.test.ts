import { DEFAULT_PARK_AFTER_MS } from "@runvil/durable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli";
import { memoryIo } from "../test-io";
import { WORKER_PARK_AFTER_MS } from "./durable-commands";
import { freshDatabase, skipReason, suiteName } from "./test-support/test-database";

const PROMPT = `---
name: p
description: Returns its argument.
runvil: 0
---

# P

## Main

\`\`\`lua
return args
\`\`\`
`;

describe("the durable commands' usage errors", () => {
  const cases: [string[], string][] = [
    [["worker"], "error: --database <url> is required (postgres://user@host:port/db)\n"],
    [
      ["worker", "--database", "mysql://x"],
      'error: --database must be a postgres:// URL, got "mysql://x"\n',
    ],
    [
      ["worker", "--database", "postgres://h/db", "--concurrency", "0"],
      'error: --concurrency must be a whole number of at least 1, got "0"\n',
    ],
    [
      ["worker", "--database", "postgres://h/db", "--dead-after", "soon"],
      'error: --dead-after must be a whole number of seconds of at least 1, got "soon"\n',
    ],
    [
      ["worker", "--database", "postgres://h/db", "--heartbeat", "5"],
      'error: --heartbeat must be a whole number of milliseconds of at least 10, got "5"\n',
    ],
    [
      ["worker", "--database", "postgres://h/db", "--park-after", "soon"],
      'error: --park-after must be a whole number of milliseconds (0: at once) or off, got "soon"\n',
    ],
    [["submit", "p.md"], "error: --database <url> is required (postgres://user@host:port/db)\n"],
    [
      ["submit", "p.md", "--database", "postgres://h/db", "--seed", "9007199254740992"],
      'error: --seed of a durable run must be a whole number from 0 to 9007199254740991 (2^53 - 1), got "9007199254740992"\n',
    ],
    [
      ["submit", "p.md", "--database", "postgres://h/db", "--model", "nope"],
      '--model takes role=model, such as writer=openai:gpt-5-mini; got "nope"\n',
    ],
    [
      ["answer", "run-1", "yes"],
      "error: --database <url> is required (postgres://user@host:port/db)\n",
    ],
    [
      ["runs", "list", "--database", "file.db"],
      'error: --database must be a postgres:// URL, got "file.db"\n',
    ],
    // No scheme: `runvil:` parses as one, and the password must not be echoed.
    [
      ["worker", "--database", "runvil:secret@host/db"],
      'error: --database must be a postgres:// URL, got "***@host/db"\n',
    ],
    [
      ["submit", "p.md", "--database", "mysql://me:secret@host/db?password=again"],
      'error: --database must be a postgres:// URL, got "***@host/db?password=***"\n',
    ],
  ];
  for (const [argv, message] of cases) {
    it(`runvil ${argv.join(" ")}`, async () => {
      const io = memoryIo({ "p.md": PROMPT });
      expect(await runCli(argv, io)).toBe(2);
      expect(io.err).toBe(message);
      expect(io.out).toBe("");
    });
  }
});

describe("runvil worker's --park-after", () => {
  it("defaults to @runvil/durable's park-after time", () => {
    expect(Number(WORKER_PARK_AFTER_MS)).toBe(DEFAULT_PARK_AFTER_MS);
  });
});

describe("runvil submit and answer on a database down or unknown", () => {
  it("names the database that cannot be reached", async () => {
    const io = memoryIo({ "p.md": PROMPT });
    expect(
      await runCli(
        ["answer", "run-1", "yes", "--database", "postgres://runvil@127.0.0.1:9/none"],
        io,
      ),
    ).toBe(1);
    expect(io.err).toMatch(
      /^runvil answer: cannot open the durable runs database: cannot reach the PostgreSQL server at postgres:\/\/runvil@127\.0\.0\.1:9\/none: .*\(ECONNREFUSED\); start it or check the host and port\n$/,
    );
  });

  it("refuses a prompt that does not parse before it touches the database", async () => {
    const io = memoryIo({ "p.md": "---\nname: p\n---\n# P\n```lua\nreturn (\n```\n" });
    expect(
      await runCli(["submit", "p.md", "--database", "postgres://runvil@127.0.0.1:9/none"], io),
    ).toBe(1);
    expect(io.err).toMatch(/^p\.md: /);
    expect(io.err).not.toContain("runvil submit");
  });
});

describe.skipIf(skipReason !== undefined)(
  suiteName("runvil submit, answer and runs list on PostgreSQL"),
  () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    beforeAll(async () => {
      database = await freshDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("submits to a database no worker has prepared yet (the client prepares it)", async () => {
      const io = memoryIo({ "p.md": PROMPT });
      expect(await runCli(["submit", "p.md", "--database", database.url, "--args", "hi"], io)).toBe(
        0,
      );
      expect(io.err).toBe("");
      const runId = io.out.trim();
      expect(runId).toMatch(/^\S+$/);
      const answer = memoryIo({});
      expect(await runCli(["answer", runId, "yes", "--database", database.url], answer)).toBe(1);
      expect(answer.err).toContain("(not_waiting)");
      const listed = memoryIo({});
      expect(await runCli(["runs", "list", "--database", database.url], listed)).toBe(0);
      expect(listed.out).toContain(runId);
    });
  },
);
