import { describe, expect, it } from "vitest";
import * as kit from "./index";
import * as testing from "./testing";

describe("package entry points", () => {
  it("export exactly the public API", () => {
    expect(Object.keys(kit).sort()).toEqual(
      [
        "errorCode",
        "errorDetail",
        "inTransaction",
        "isConnectionLoss",
        "isUnreachable",
        "loadPg",
        "migrateTables",
        "openPool",
        "redactedUrl",
        "redactedUserinfo",
        "schemaNameProblem",
        "underSchemaLock",
      ].sort(),
    );
    expect(Object.keys(testing).sort()).toEqual(
      [
        "adminQuery",
        "CuttableProxy",
        "dropSchema",
        "freshDatabase",
        "freshName",
        "serverUrl",
        "skipReason",
        "suiteName",
      ].sort(),
    );
  });
});
