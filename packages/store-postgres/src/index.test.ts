import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as storePostgres from "./index";

describe("@runvil/store-postgres entry point", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(storePostgres).sort()).toEqual([
      "PgRunStore",
      "PgStoreDatabaseError",
      "STORE_SCHEMA_VERSION",
      "openPgStoreDatabase",
    ]);
  });

  it("maps its one entry point to the build output and pins pg like the journal", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
      "./package.json": "./package.json",
    });
    const journal = JSON.parse(
      readFileSync(new URL("../../journal/package.json", import.meta.url), "utf8"),
    );
    expect(manifest.dependencies.pg).toBe(journal.dependencies.pg);
  });

  it("loads no database client until a store database is opened", () => {
    const loaded = Object.keys(require.cache ?? {}).filter((k) => /[\\/]pg[\\/]/.test(k));
    expect(loaded).toEqual([]);
  });
});
