import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as harness from "./index";
import * as testing from "./testing/index";

describe("@runvil/harness entry points", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(harness).sort()).toEqual([
      "DEFAULT_STORE_LIMITS",
      "DirectoryStore",
      "EventRecorder",
      "JsonLinesEventSink",
      "MemoryEventSink",
      "MemoryStore",
      "ModelDispatcher",
      "RunPort",
      "ToolDispatcher",
      "applyStoreOperation",
      "eventRecordLine",
      "parseEventRecords",
      "readAllFiles",
      "readEventRecords",
    ]);
  });

  it("exports exactly the contract suite from @runvil/harness/testing", () => {
    expect(Object.keys(testing).sort()).toEqual(["describeRunStoreContract"]);
  });

  it("maps each entry point to its build output; vitest is an optional peer", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
      "./testing": { types: "./dist/testing.d.ts", import: "./dist/testing.js" },
      "./package.json": "./package.json",
    });
    expect(manifest.dependencies.vitest).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ vitest: "^4.1.12" });
    expect(manifest.peerDependenciesMeta).toEqual({ vitest: { optional: true } });
  });
});
