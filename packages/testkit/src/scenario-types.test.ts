import { describe, expect, it } from "vitest";
import { SCENARIO_EXTENSIONS } from "./collect-files";
import { NONCE_PLACEHOLDER } from "./nonce";
import { SCENARIO_PLUGIN_NAME } from "./scenario-plugins";
import { SCENARIO_REGEX_FLAGS } from "./scenario-regex";
import {
  boundModelId,
  DEFAULT_FIXTURE_VENDOR,
  DEFAULT_MODEL_ID,
  DEFAULT_RUN_NAME,
  DEFAULT_SEED,
  DEFAULT_START,
  HOST_SERVICES,
  OFFICIAL_PACKS,
  RUN_OUTCOMES,
} from "./scenario-types";
import { SCRIPTED_PROVIDER_NAME } from "./scripted-model-provider";

describe("boundModelId", () => {
  const models = { bind: { writer: "claude-sonnet-4-6" }, replies: [] };

  it("binds a role named in models.bind to its catalog id", () => {
    expect(boundModelId(models, "writer")).toBe("claude-sonnet-4-6");
  });

  it("binds every other role to scripted-model", () => {
    expect(DEFAULT_MODEL_ID).toBe("scripted-model");
    expect(boundModelId(models, "critic")).toBe("scripted-model");
    expect(boundModelId({ bind: {}, replies: [] }, "writer")).toBe("scripted-model");
  });

  it("does not read inherited object properties as roles", () => {
    expect(boundModelId(models, "toString")).toBe("scripted-model");
    expect(boundModelId(models, "__proto__")).toBe("scripted-model");
  });
});

describe("the format's constants", () => {
  it("hold the format's names and defaults", () => {
    expect(OFFICIAL_PACKS).toEqual(["web", "user-input", "subagents"]);
    expect(HOST_SERVICES).toEqual(["input-broker", "search-provider"]);
    expect(RUN_OUTCOMES).toEqual(["succeeded", "failed", "cancelled"]);
    expect([DEFAULT_RUN_NAME, DEFAULT_SEED, DEFAULT_START]).toEqual([
      "run-1",
      0,
      "2000-01-01T00:00:00Z",
    ]);
    expect(DEFAULT_MODEL_ID).toBe("scripted-model");
    expect(DEFAULT_FIXTURE_VENDOR).toBe("fixture");
    expect(NONCE_PLACEHOLDER).toBe("NONCE");
    expect(SCENARIO_REGEX_FLAGS).toBe("u");
    expect(SCENARIO_EXTENSIONS).toEqual([".yaml", ".yml"]);
    expect(SCRIPTED_PROVIDER_NAME).toBe("scripted");
    expect(SCENARIO_PLUGIN_NAME).toBe("@runvil/testkit scenario");
  });
});
