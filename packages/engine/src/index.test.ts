import { describe, expect, it } from "vitest";
import * as engine from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(engine).sort()).toEqual([
      "ARGV_FROZEN_MESSAGE",
      "CALL_DEPTH_CAP",
      "CALL_RECURSION_MESSAGE",
      "CONTROL_MARKUP",
      "DEFAULT_EXECUTION",
      "DEFAULT_START_MS",
      "JUMP_IN_HANDLER_MESSAGE",
      "MAX_RUN_SEED",
      "PROSE_READ_ONLY_MESSAGE",
      "SECTION_TARGET_NOT_STRING",
      "UNTRUSTED_ARITY_MESSAGE",
      "escapeUntrusted",
      "gateFailedMessage",
      "loadEngine",
      "parseHeadingReference",
      "requireCycleMessage",
      "requireNotHeadingMessage",
      "runNonce",
      "sectionNotFoundMessage",
      "substitutionMessage",
      "toolCallFailureMessage",
      "toolListFixedMessage",
      "unboundToolMessage",
      "wrapUntrusted",
    ]);
  });
});
