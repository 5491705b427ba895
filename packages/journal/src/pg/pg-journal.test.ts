import { adminQuery, dropSchema, freshName, serverUrl, skipReason } from "@runvil/pg-kit/testing";
import { describe, expect, it } from "vitest";
import { JournalError } from "../journal-error";
import { describeJournalContract } from "../testing";
import { openPgJournal } from "./pg-journal";
import { PG_SCHEMA_VERSION } from "./schema";

const skip = skipReason;

describeJournalContract(
  "PostgreSQL",
  async () => {
    // Each case gets a schema of its own, dropped afterwards.
    const schema = freshName("runvil_test");
    return {
      journal: await openPgJournal(serverUrl(), { schema }),
      openAnother: () => openPgJournal(serverUrl(), { schema }),
      cleanup: () => dropSchema(schema),
    };
  },
  skip === undefined ? {} : { skip },
);

describe.skipIf(skip !== undefined)(
  `the PostgreSQL journal${skip === undefined ? "" : ` (skipped: ${skip})`}`,
  () => {
    it("refuses a journal of a newer schema and leaves it unchanged", async () => {
      const schema = freshName("runvil_test");
      const journal = await openPgJournal(serverUrl(), { schema });
      await journal.close();
      await adminQuery(`UPDATE ${schema}.runvil_journal SET version = ${PG_SCHEMA_VERSION + 1}`);
      const error = await openPgJournal(serverUrl(), { schema }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ reason: "newer_schema" });
      expect(await adminQuery(`SELECT version FROM ${schema}.runvil_journal`)).toEqual([
        { version: PG_SCHEMA_VERSION + 1 },
      ]);
      await dropSchema(schema);
    });

    it("two first opens at once migrate once", async () => {
      const schema = freshName("runvil_test");
      const [a, b] = await Promise.all([
        openPgJournal(serverUrl(), { schema }),
        openPgJournal(serverUrl(), { schema }),
      ]);
      expect(await a.listRuns()).toEqual([]);
      expect(await b.listRuns()).toEqual([]);
      await a.close();
      await b.close();
      await dropSchema(schema);
    });
  },
);

describe("the PostgreSQL journal's messages", () => {
  it("refuse a schema that is not a plain name, naming it, before connecting", async () => {
    const error = await openPgJournal("postgres://me:secret@127.0.0.1:1/runs", {
      schema: "runs; drop",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalError);
    expect((error as Error).message).toBe(
      "postgres://me:***@127.0.0.1:1/runs: runs; drop is not a plain schema name (a-z, 0-9, _)",
    );
  });

  it("name an unreachable server and what to do", async () => {
    const error = await openPgJournal("postgres://me:secret@127.0.0.1:1/runs").catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ reason: "unavailable" });
    expect((error as Error).message).toMatch(
      /^postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/runs: cannot open the journal: cannot reach the PostgreSQL server \(.*\); start it or check the URL$/,
    );
  });
});
