import { randomBytes } from "node:crypto";
import { loadPg } from "../load-pg";

/**
 * The PostgreSQL server Runvil's tests use: RUNVIL_TEST_PG_URL (`.ci/run` and
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

/** A fresh name (`{prefix}_{12 hex digits}`) for a schema or database of one test. */
export function freshName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** Runs one statement on the test server (or `targetUrl`) with a client of its own. */
export async function adminQuery(text: string, targetUrl = serverUrl()): Promise<unknown[]> {
  const { Client } = loadPg();
  const client = new Client({ connectionString: targetUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** Drops a schema a test made, with its tables. */
export async function dropSchema(schema: string, targetUrl = serverUrl()): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`, targetUrl);
}

/** A fresh database on the test server named `{prefix}_…`: its URL, and a dropper. */
export async function freshDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = freshName(prefix);
  await adminQuery(`CREATE DATABASE ${name}`);
  const parsed = new URL(serverUrl());
  parsed.pathname = `/${name}`;
  return {
    url: parsed.toString(),
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
