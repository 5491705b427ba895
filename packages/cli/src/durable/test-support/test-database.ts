import { freshDatabase as freshDatabaseNamed } from "@runvil/pg-kit/testing";

export { skipReason, suiteName } from "@runvil/pg-kit/testing";

/** A fresh database on the test server (DBOS's tables, the stores, the registry) and its URL. */
export function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return freshDatabaseNamed("runvil_durable");
}
