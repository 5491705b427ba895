import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type * as Pg from "pg";

/**
 * The PostgreSQL server of the durable tests: RUNVIL_TEST_PG_URL (`.ci/run` and
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

function serverUrl(): string {
  if (url === undefined) {
    throw new Error("CI=true but RUNVIL_TEST_PG_URL is not set: .ci/run must start PostgreSQL");
  }
  return url;
}

async function admin(text: string): Promise<void> {
  const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh database on the test server (DBOS's tables, the stores, the registry) and its URL. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `runvil_durable_${randomBytes(5).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  const parsed = new URL(serverUrl());
  parsed.pathname = `/${name}`;
  return {
    url: parsed.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
