import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as harness from "./index";
import * as storeKit from "./store-kit/index";
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

  it("exports exactly the backend helpers from @runvil/harness/store-kit", () => {
    expect(Object.keys(storeKit).sort()).toEqual([
      "SerialQueue",
      "anchorNotFound",
      "anchorNotUnique",
      "compareBytewise",
      "compileGlob",
      "editArguments",
      "fileIsTooLarge",
      "fileWouldBeTooLarge",
      "invalidUtf8File",
      "ioError",
      "isDirectory",
      "isFileNotDirectory",
      "notFound",
      "parentIsFile",
      "parseStorePath",
      "replaceAnchor",
      "resolveStoreLimits",
      "sortBytewise",
      "storeWouldBeTooLarge",
      "textArgument",
      "textAsBytes",
      "textAsString",
      "utf8ValidUpTo",
    ]);
  });

  it("maps each entry point to its build output; vitest is an optional peer", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
      "./testing": { types: "./dist/testing.d.ts", import: "./dist/testing.js" },
      "./store-kit": { types: "./dist/store-kit.d.ts", import: "./dist/store-kit.js" },
      "./package.json": "./package.json",
    });
    expect(manifest.dependencies.vitest).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ vitest: "^4.1.12" });
    expect(manifest.peerDependenciesMeta).toEqual({ vitest: { optional: true } });
  });
});
