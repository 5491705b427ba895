import { describe, expect, it } from "vitest";
import { compileScenarioRegex, SCENARIO_REGEX_FLAGS } from "./scenario-regex";

describe("compileScenarioRegex", () => {
  it("uses the u flag and no other", () => {
    expect(SCENARIO_REGEX_FLAGS).toBe("u");
    const compiled = compileScenarioRegex("^a$");
    expect(compiled.ok && compiled.regex.flags).toBe("u");
  });

  it("reports the engine's reason for a source that does not compile", () => {
    expect(compileScenarioRegex("(")).toEqual({
      ok: false,
      reason: "Invalid regular expression: /(/u: Unterminated group",
    });
  });

  it("refuses escapes that the u flag forbids", () => {
    expect(compileScenarioRegex("\\-").ok).toBe(false);
    expect(compileScenarioRegex("[\\-]").ok).toBe(true);
  });
});
