import { describe, expect, it } from "vitest";
import { boundModelId, DEFAULT_MODEL_ID } from "./scenario-types";

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
