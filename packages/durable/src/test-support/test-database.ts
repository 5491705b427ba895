import { freshDatabase as freshDatabaseNamed } from "@runvil/pg-kit/testing";

export { skipReason, suiteName } from "@runvil/pg-kit/testing";

/** Creates a fresh database on the test server and returns its URL and a dropper. */
export function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return freshDatabaseNamed("runvil_durable");
}
