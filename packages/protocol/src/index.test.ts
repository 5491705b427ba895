import { describe, expect, it } from "vitest";
import * as protocol from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(protocol).sort()).toEqual(["RUN_ERROR_KINDS", "formatEventLine"]);
  });

  it("lists the eight run error kinds of the outcomes chapter", () => {
    expect(protocol.RUN_ERROR_KINDS).toEqual([
      "Lua",
      "Tool",
      "RequirementsUnmet",
      "Quota",
      "Vfs",
      "ContextExhausted",
      "Completion",
      "Determinism",
    ]);
  });
});
