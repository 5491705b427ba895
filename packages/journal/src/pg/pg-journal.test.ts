import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type * as Pg from "pg";
import { describe, expect, it } from "vitest";
import { JournalError } from "../journal-error";
import { describeJournalContract } from "../testing";
import { openPgJournal, redactedUrl } from "./pg-journal";
import { PG_SCHEMA_VERSION } from "./schema";

/**
 * The PostgreSQL server the tests use: RUNVIL_TEST_PG_URL (`.ci/run` starts a throwaway cluster
 * and sets it). With CI=true the tests never skip: a missing URL fails them.
 */
const url = process.env.RUNVIL_TEST_PG_URL;
const inCi = process.env.CI === "true";
const skip =
  url === undefined && !inCi
    ? "no PostgreSQL server: set RUNVIL_TEST_PG_URL=postgres://user@127.0.0.1:port/db"
    : undefined;

function serverUrl(): string {
  if (url === undefined) {
    throw new Error("CI=true but RUNVIL_TEST_PG_URL is not set: .ci/run must start PostgreSQL");
  }
  return url;
}

async function dropSchema(schema: string): Promise<void> {
  const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

describeJournalContract(
  "PostgreSQL",
  async () => {
    // Each case gets a schema of its own, dropped afterwards.
    const schema = `runvil_test_${randomBytes(6).toString("hex")}`;
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
      const schema = `runvil_test_${randomBytes(6).toString("hex")}`;
      const journal = await openPgJournal(serverUrl(), { schema });
      await journal.close();
      const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
      const client = new Client({ connectionString: serverUrl() });
      await client.connect();
      await client.query(`UPDATE ${schema}.runvil_journal SET version = ${PG_SCHEMA_VERSION + 1}`);
      const error = await openPgJournal(serverUrl(), { schema }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ reason: "newer_schema" });
      const version = await client.query(`SELECT version FROM ${schema}.runvil_journal`);
      expect(version.rows).toEqual([{ version: PG_SCHEMA_VERSION + 1 }]);
      await client.end();
      await dropSchema(schema);
    });

    it("two first opens at once migrate once", async () => {
      const schema = `runvil_test_${randomBytes(6).toString("hex")}`;
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
  it("hide the password of the URL", () => {
    expect(redactedUrl("postgres://me:secret@127.0.0.1:5432/runs")).toBe(
      "postgres://me:***@127.0.0.1:5432/runs",
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
