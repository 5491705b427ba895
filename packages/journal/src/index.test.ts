import { describe, expect, it } from "vitest";
import * as journal from "./index";
import * as testing from "./testing/index";

describe("the package entry points", () => {
  it("export exactly the public API", () => {
    expect(Object.keys(journal).sort()).toEqual([
      "EFFECT_KINDS",
      "EVENT_COMMIT_MS",
      "JournalError",
      "PG_SCHEMA_VERSION",
      "SQLITE_SCHEMA_VERSION",
      "changedPath",
      "countToolCalls",
      "createIntentPort",
      "createJournalPort",
      "createReplayPort",
      "createResumePort",
      "decodeValue",
      "encodeOutput",
      "encodeValue",
      "failureError",
      "isPgUrl",
      "openJournal",
      "openPgJournal",
      "openSqliteJournal",
      "ownerState",
      "promptHash",
      "recordFailure",
      "storePathText",
    ]);
    expect(Object.keys(testing).sort()).toEqual(["describeJournalContract"]);
  });

  it("loads no database client until a journal is opened", async () => {
    const loaded = Object.keys(require.cache ?? {}).filter((k) =>
      /better-sqlite3|[\\/]pg[\\/]/.test(k),
    );
    expect(loaded).toEqual([]);
  });
});
