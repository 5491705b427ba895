import { describe, expect, it } from "vitest";
import * as testkit from "./index";

describe("the package entry", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(testkit).sort()).toEqual(
      [
        "DEFAULT_CASE_TIMEOUT_MS",
        "DEFAULT_FIXTURE_VENDOR",
        "FixtureSearchProvider",
        "HELD_WAIT_ENDED",
        "REQUIREMENTS_UNMET",
        "RUN_SCENARIO_SOURCE",
        "SCENARIO_PLUGIN_NAME",
        "SCRIPTED_FAILURE_KINDS",
        "SCRIPTED_PROVIDER_NAME",
        "ScenarioRunError",
        "ScriptedInputBroker",
        "ScriptedModelProvider",
        "createScenarioHost",
        "executeCase",
        "fixturePackDescription",
        "fixturePageFetcher",
        "fixtureToolDefinition",
        "noPageMessage",
        "noResultsMessage",
        "officialPacks",
        "runScenario",
        "scenarioCaseOf",
        "scenarioGuardedEntry",
        "scenarioPacks",
        "scenarioPlugin",
        "DEFAULT_MODEL_ID",
        "DEFAULT_RUN_NAME",
        "DEFAULT_SEED",
        "DEFAULT_START",
        "HOST_SERVICES",
        "NONCE_PLACEHOLDER",
        "OFFICIAL_PACKS",
        "RUN_OUTCOMES",
        "SCENARIO_EXTENSIONS",
        "SCENARIO_REGEX_FLAGS",
        "ScenarioFormatError",
        "ScenarioPathError",
        "boundModelId",
        "canonicalJson",
        "checkExpectations",
        "checkedCaseResult",
        "collectScenarioFiles",
        "compileScenarioRegex",
        "countResults",
        "describeIssue",
        "filterCases",
        "firstDifference",
        "formatKeyPath",
        "formatReport",
        "jsonDifference",
        "jsonEqual",
        "lineDiff",
        "loadScenarioFile",
        "renderLineDiff",
        "runScenarioCase",
        "skippedCaseResult",
        "splitLines",
        "summaryLine",
        "toJsonReport",
        "withNonce",
        "withNonceDeep",
      ].sort(),
    );
  });

  it("exports the format's constants", () => {
    expect(testkit.OFFICIAL_PACKS).toEqual(["web", "user-input", "subagents"]);
    expect(testkit.HOST_SERVICES).toEqual(["input-broker", "search-provider"]);
    expect(testkit.RUN_OUTCOMES).toEqual(["succeeded", "failed", "cancelled"]);
    expect([testkit.DEFAULT_RUN_NAME, testkit.DEFAULT_SEED, testkit.DEFAULT_START]).toEqual([
      "run-1",
      0,
      "2000-01-01T00:00:00Z",
    ]);
    expect(testkit.DEFAULT_MODEL_ID).toBe("scripted-model");
    expect(testkit.DEFAULT_FIXTURE_VENDOR).toBe("fixture");
    expect(testkit.NONCE_PLACEHOLDER).toBe("NONCE");
    expect(testkit.SCENARIO_REGEX_FLAGS).toBe("u");
    expect(testkit.SCENARIO_EXTENSIONS).toEqual([".yaml", ".yml"]);
    expect(testkit.REQUIREMENTS_UNMET).toBe("RequirementsUnmet");
    expect(testkit.DEFAULT_CASE_TIMEOUT_MS).toBe(10_000);
    expect(testkit.SCRIPTED_PROVIDER_NAME).toBe("scripted");
    expect(testkit.SCENARIO_PLUGIN_NAME).toBe("@runvil/testkit scenario");
  });
});
