import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { diskIo, tempFolders } from "../journal/test-journal-io";
import { runCli } from "../run-cli";

const examples = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "examples");
const folders = tempFolders();
afterAll(() => folders.removeAll());

/** Every example that runs without a model, with an argument string its scenarios use. */
const CASES: { name: string; file: string; args: string[]; store?: boolean }[] = [
  {
    name: "word-count",
    file: "word-count/word-count.md",
    args: ["--args", "Apples and pears, apples and PEARS"],
  },
  {
    name: "expense-ledger",
    file: "expense-ledger/expense-ledger.md",
    args: ["--args", '{"category":"food","amount":12.5}'],
    store: true,
  },
  {
    name: "report-card",
    file: "report-card/report-card.md",
    args: ["--args", '{"zed":59,"amy":100}'],
  },
  {
    name: "task-tally (concurrent tasks)",
    file: "task-tally/task-tally.md",
    args: ["--args", '["a b","c","d e f"]'],
  },
  {
    name: "writing-brief",
    file: "writing-brief/writing-brief.md",
    args: ["--args", '{"audience":"maintainers","topics":"## Release topics"}'],
  },
];

const acmeBuilt = existsSync(join(examples, "acme-notes", "dist", "index.js"));

describe("every example's recorded run replays byte for byte", () => {
  for (const example of CASES) {
    it(example.name, async () => {
      const folder = folders.make();
      const journal = join(folder, "runs.db");
      const io = diskIo();
      const store = example.store === true ? ["--store", join(folder, "store")] : [];
      const code = await runCli(
        [
          "run",
          join(examples, example.file),
          "--journal",
          journal,
          "--seed",
          "7",
          "--input",
          "none",
          ...store,
          ...example.args,
        ],
        io,
      );
      expect(io.err).toBe("");
      expect(code).toBe(0);
      io.reset();
      expect(await runCli(["replay", "--all", "--journal", journal], io)).toBe(0);
      expect(io.out).toMatch(
        /: reproduced \(\d+ effects answered by the journal, \d+ events identical, the same result\)\n$/,
      );
      expect(io.err).toBe("");
    });
  }

  it.skipIf(!acmeBuilt)(
    `acme-notes (a third-party Pack from its config)${acmeBuilt ? "" : " (skipped: examples/acme-notes/dist is not built; pnpm build builds it)"}`,
    async () => {
      const folder = folders.make();
      const journal = join(folder, "runs.db");
      const io = diskIo();
      const args = [
        "--args",
        "done: fixed the login; todo: write the docs",
        "--store",
        join(folder, "store"),
      ];
      expect(
        await runCli(
          [
            "run",
            join(examples, "acme-notes", "notes.md"),
            "--journal",
            journal,
            "--input",
            "none",
            ...args,
          ],
          io,
        ),
      ).toBe(0);
      io.reset();
      expect(await runCli(["replay", "--all", "--journal", journal], io)).toBe(0);
      expect(io.out).toContain(": reproduced (");
    },
  );
});
