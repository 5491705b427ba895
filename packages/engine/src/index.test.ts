import { describe, expect, it } from "vitest";
import * as engine from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(engine).sort()).toEqual([
      "DEFAULT_EXECUTION",
      "DEFAULT_START_MS",
      "MAX_RUN_SEED",
      "loadEngine",
      "runNonce",
    ]);
  });
});
