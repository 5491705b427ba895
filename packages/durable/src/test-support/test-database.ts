import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type * as Pg from "pg";

/**
 * The PostgreSQL server the tests use: RUNVIL_TEST_PG_URL (`.ci/run` starts a throwaway cluster
 * and sets it). With CI=true the tests never skip: a missing URL fails them.
 */
export const serverUrl = process.env.RUNVIL_TEST_PG_URL;
const inCi = process.env.CI === "true";

/** Why the PostgreSQL suites skip, or undefined when they run. */
export const skipReason =
  serverUrl === undefined && !inCi
    ? "skipped: no PostgreSQL server, set RUNVIL_TEST_PG_URL=postgres://user@127.0.0.1:port/db"
    : undefined;

/** A suite name with the skip reason in it when it skips. */
export function suiteName(name: string): string {
  return skipReason === undefined ? name : `${name} (${skipReason})`;
}

function server(): string {
  if (serverUrl === undefined) {
    throw new Error("CI=true but RUNVIL_TEST_PG_URL is not set: .ci/run must start PostgreSQL");
  }
  return serverUrl;
}

/** Creates a fresh database on the test server and returns its URL and a dropper. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = createRequire(import.meta.url)("pg") as typeof Pg;
  const name = `runvil_durable_${randomBytes(5).toString("hex")}`;
  const admin = new Client({ connectionString: server() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new Client({ connectionString: server() });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}
