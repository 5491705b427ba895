import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type * as Pg from "pg";

/**
 * The PostgreSQL server the tests use: RUNVIL_TEST_PG_URL (`.ci/run` and
 * `bash scripts/test-postgres.sh` start a throwaway cluster). With CI=true the tests never skip:
 * a missing URL fails them.
 */
const url = process.env.RUNVIL_TEST_PG_URL;
const inCi = process.env.CI === "true";

/** Why the PostgreSQL tests are skipped, or undefined when they run. */
export const skipReason: string | undefined =
  url === undefined && !inCi
    ? "no PostgreSQL server: set RUNVIL_TEST_PG_URL=postgres://user@127.0.0.1:port/db"
    : undefined;

/** `name`, with the reason when the suite is skipped. */
export function suiteName(name: string): string {
  return skipReason === undefined ? name : `${name} (skipped: ${skipReason})`;
}

/** The server's URL; throws under CI=true without one. */
export function serverUrl(): string {
  if (url === undefined) {
    throw new Error("CI=true but RUNVIL_TEST_PG_URL is not set: .ci/run must start PostgreSQL");
  }
  return url;
}

/** A fresh schema name for one test file or case. */
export function freshSchema(): string {
  return `runvil_store_test_${randomBytes(6).toString("hex")}`;
}

/** Runs one statement on the test server with a client of its own. */
export async function adminQuery(text: string, targetUrl = serverUrl()): Promise<unknown[]> {
  const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
  const client = new Client({ connectionString: targetUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** Drops a schema the tests made. */
export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
