import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as sdk from "./index";
import * as testing from "./testing/index";

describe("the package entry points", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(sdk).sort()).toEqual([
      "INPUT_BROKER",
      "MODEL_FAILURE_KINDS",
      "MODEL_PROGRESS_TYPES",
      "MODEL_SPECIFICATION_VERSION",
      "ModelFailure",
      "SEARCH_PROVIDER",
      "STORE_ERROR_REASONS",
      "StoreError",
      "ToolFailure",
      "definePack",
      "definePlugin",
      "defineTool",
      "isJsonObject",
    ]);
  });

  it("exports exactly the test doubles from @runvil/sdk/testing", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "TEST_ORIGIN",
      "TEST_STORE_NO_GLOB",
      "TestStore",
      "testServices",
      "testToolContext",
    ]);
  });

  it("maps each entry point to its build output", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
      "./testing": { types: "./dist/testing.d.ts", import: "./dist/testing.js" },
      "./package.json": "./package.json",
    });
  });
});
