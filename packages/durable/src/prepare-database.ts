import { migrateSystemDatabase } from "@dbos-inc/dbos-sdk/internal/system_database";
import { loadPg } from "@runvil/pg-kit";

/** The advisory lock every process holds while it creates or migrates DBOS's schema. */
const TRY_MIGRATION_LOCK =
  "SELECT pg_try_advisory_lock(hashtext('runvil.dbos-migration')) AS locked";

/** How long a process waits for another's migration before it gives up. */
const MIGRATION_WAIT_MS = 5 * 60 * 1000;

/** DBOS's logger interface, as its migration uses it. */
type MigrationLogger = Parameters<typeof migrateSystemDatabase>[1];

/**
 * A logger for DBOS's migration that keeps its progress notes ("Running DBOS system database
 * migrations...") off the console, where they would land in a command's output, and hands
 * warnings and errors to `warn`.
 */
function migrationLogger(warn: (message: string) => void): MigrationLogger {
  const text = (args: unknown[]): string => args.map((a) => String(a)).join(" ");
  const quiet = (): void => {};
  return {
    info: quiet,
    debug: quiet,
    warn: (...args: unknown[]) => warn(text(args)),
    error: (...args: unknown[]) => warn(text(args)),
  } as unknown as MigrationLogger;
}

/**
 * Creates or migrates DBOS's system schema in the database at `url`, one process at a time.
 * DBOS 5.3.0 migrates without a lock: processes migrating one fresh database at the same instant
 * fail each other (`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`,
 * `tuple concurrently updated`, a function another has not created yet). Under a session advisory
 * lock the first migrates and the others find the schema current (a crashed holder's lock ends
 * with its session). Its migration notes are kept quiet.
 */
export async function prepareSystemDatabase(
  url: string,
  warn: (message: string) => void = (message) => process.emitWarning(message, "DBOSMigration"),
): Promise<void> {
  const { Client } = loadPg();
  const client = new Client({ connectionString: url });
  client.on("error", () => {}); // a lost connection fails the query in flight
  await client.connect();
  try {
    // Polled, never waited on in a statement: DBOS's migration builds indexes CONCURRENTLY, which
    // waits for every open transaction, and a waiting pg_advisory_lock is one, held up by the
    // migrating process itself (a deadlock PostgreSQL cannot see).
    const end = Date.now() + MIGRATION_WAIT_MS;
    while (!(await client.query<{ locked: boolean }>(TRY_MIGRATION_LOCK)).rows[0]?.locked) {
      if (Date.now() > end) {
        throw new Error(
          `another process has been migrating DBOS's schema for ${MIGRATION_WAIT_MS / 60_000} minutes (advisory lock runvil.dbos-migration)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await migrateSystemDatabase(url, migrationLogger(warn));
  } finally {
    await client.end().catch(() => {});
  }
}
