import { describe, expect, it } from "vitest";
import * as protocol from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(protocol).sort()).toEqual([
      "NO_RUN_USAGE",
      "RUN_ERROR_KINDS",
      "formatEventLine",
    ]);
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

  it("has the usage of a run without model rounds, frozen", () => {
    expect(protocol.NO_RUN_USAGE.total).toEqual({
      rounds: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: "0",
      unpricedRounds: 0,
    });
    expect(Object.isFrozen(protocol.NO_RUN_USAGE.total)).toBe(true);
    expect(Object.isFrozen(protocol.NO_RUN_USAGE.byModel)).toBe(true);
  });
});
