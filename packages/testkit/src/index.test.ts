import { describe, expect, it } from "vitest";
import * as testkit from "./index";

describe("the package entry", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(testkit).sort()).toEqual([
      "DEFAULT_CASE_TIMEOUT_MS",
      "FixtureSearchProvider",
      "REQUIREMENTS_UNMET",
      "ScenarioFormatError",
      "ScenarioPathError",
      "ScenarioRunError",
      "ScenarioWriteError",
      "ScriptedInputBroker",
      "ScriptedModelProvider",
      "addScenarioCase",
      "checkExpectations",
      "checkedCaseResult",
      "collectScenarioFiles",
      "createScenarioHost",
      "describeIssue",
      "executeCase",
      "filterCases",
      "fixturePageFetcher",
      "formatReport",
      "loadScenarioFile",
      "runScenario",
      "runScenarioCase",
      "skippedCaseResult",
      "toJsonReport",
    ]);
  });

  it("exports the runner's constants", () => {
    expect(testkit.REQUIREMENTS_UNMET).toBe("RequirementsUnmet");
    expect(testkit.DEFAULT_CASE_TIMEOUT_MS).toBe(10_000);
  });
});
