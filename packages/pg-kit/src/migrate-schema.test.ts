import { afterAll, describe, expect, it } from "vitest";
import { migrateTables, type VersionedTables } from "./migrate-schema";
import { openPool } from "./open-pool";
import { underSchemaLock } from "./schema-lock";
import { adminQuery, dropSchema, freshName, serverUrl, skipReason, suiteName } from "./testing";

const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

/** A fresh schema with the tables of `migrations`, migrated through a pool of its own. */
function tablesIn(schema: string, migrations: readonly string[]): VersionedTables {
  return {
    lock: "runvil_pg_kit_test",
    schema,
    versionTable: "kit_schema",
    migrations,
    newer: (found) => new Error(`version ${found} is newer than ${migrations.length}`),
  };
}

async function migrate(tables: VersionedTables): Promise<void> {
  const pool = openPool(serverUrl(), { schema: tables.schema, maxConnections: 2 });
  try {
    await migrateTables(pool, tables);
  } finally {
    await pool.end();
  }
}

const V1 = "CREATE TABLE notes (id INTEGER PRIMARY KEY)";
const V2 = "ALTER TABLE notes ADD COLUMN body TEXT NOT NULL DEFAULT ''";

describe.skipIf(skipReason !== undefined)(suiteName("migrateTables"), () => {
  const fresh = (): string => {
    const schema = freshName("runvil_pg_kit_test");
    schemas.push(schema);
    return schema;
  };

  it("creates the schema and the tables, records the version, and runs each migration once", async () => {
    const schema = fresh();
    await migrate(tablesIn(schema, [V1]));
    await migrate(tablesIn(schema, [V1])); // CREATE TABLE again would fail
    await migrate(tablesIn(schema, [V1, V2]));
    expect(await adminQuery(`SELECT version FROM ${schema}.kit_schema`)).toEqual([{ version: 2 }]);
    const columns = await adminQuery(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = '${schema}' AND table_name = 'notes' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([{ column_name: "id" }, { column_name: "body" }]);
  });

  it("refuses a newer database with the caller's error and leaves it unchanged", async () => {
    const schema = fresh();
    await migrate(tablesIn(schema, [V1, V2]));
    const error = await migrate(tablesIn(schema, [V1])).catch((e: unknown) => e);
    expect(error).toEqual(new Error("version 2 is newer than 1"));
    expect(await adminQuery(`SELECT version FROM ${schema}.kit_schema`)).toEqual([{ version: 2 }]);
  });

  it("rolls a failing migration back whole, the version with it", async () => {
    const schema = fresh();
    await migrate(tablesIn(schema, [V1]));
    const error = await migrate(tablesIn(schema, [V1, V2, "ALTER TABLE missing ADD x INT"])).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "42P01" }); // undefined_table, rethrown as it is
    expect(await adminQuery(`SELECT version FROM ${schema}.kit_schema`)).toEqual([{ version: 1 }]);
    const body = await adminQuery(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = '${schema}' AND column_name = 'body'`,
    );
    expect(body).toEqual([]);
  });

  it("under the schema lock, rolls the schema back with failed work and commits it with work done", async () => {
    const schema = fresh();
    const where = { lock: "runvil_pg_kit_test", schema };
    const schemaRows = () =>
      adminQuery(`SELECT 1 AS one FROM pg_namespace WHERE nspname = '${schema}'`);
    const pool = openPool(serverUrl(), { schema, maxConnections: 1 });
    try {
      const failed = await underSchemaLock(pool, where, (c) =>
        c.query("SELECT * FROM missing"),
      ).catch((e: unknown) => e);
      expect(failed).toMatchObject({ code: "42P01" }); // rethrown as it is
      expect(await schemaRows()).toEqual([]);
      // Another session does not see the schema before the commit; afterwards it does.
      expect(await underSchemaLock(pool, where, schemaRows)).toEqual([]);
      expect(await schemaRows()).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it("lets two first opens at once migrate once (the advisory lock)", async () => {
    const schema = fresh();
    await Promise.all([migrate(tablesIn(schema, [V1])), migrate(tablesIn(schema, [V1]))]);
    expect(await adminQuery(`SELECT version FROM ${schema}.kit_schema`)).toEqual([{ version: 1 }]);
  });
});
