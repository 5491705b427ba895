import { randomUUID } from "node:crypto";
import { describeRunStoreContract } from "@runvil/harness/testing";
import { afterAll, describe, it } from "vitest";
import { openPgStoreDatabase, type PgStoreDatabase } from "./pg-store-database";
import {
  dropSchema,
  freshSchema,
  serverUrl,
  skipReason,
  suiteName,
} from "./test-support/test-server";

const schema = freshSchema();
let database: Promise<PgStoreDatabase> | undefined;

if (skipReason === undefined) {
  // Every case gets a store of its own run id in one database; the schema goes afterwards.
  describeRunStoreContract("PgRunStore", async (setup) => {
    database ??= openPgStoreDatabase(serverUrl(), { schema });
    return (await database).store(`contract-${randomUUID()}`, setup);
  });
  afterAll(async () => {
    if (database !== undefined) await (await database).close();
    await dropSchema(schema);
  });
} else {
  describe.skip(suiteName("PgRunStore: the RunStore contract"), () => {
    it("needs a PostgreSQL server", () => {});
  });
}
