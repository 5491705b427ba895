import { describe, expect, it } from "vitest";
import { isJsonObject } from "./json";
import { ModelFailure } from "./model";
import { definePack } from "./pack";
import { definePlugin } from "./plugin";
import { defineTool } from "./tool";
import { isToolFailure, ToolFailure } from "./tool-failure";

describe("ToolFailure", () => {
  it("carries a model-safe message and keeps the cause apart", () => {
    const failure = new ToolFailure("web_fetch: missing url argument", {
      cause: new Error("socket reset"),
    });
    expect(failure.message).toBe("web_fetch: missing url argument");
    expect(failure.name).toBe("ToolFailure");
    expect((failure.cause as Error).message).toBe("socket reset");
    expect(isToolFailure(failure)).toBe(true);
  });

  it("is recognised across copies of the SDK, and nothing else is", () => {
    const fromAnotherCopy = Object.assign(new Error("x: failed"), { isToolFailure: true });
    expect(isToolFailure(fromAnotherCopy)).toBe(true);
    expect(isToolFailure(new Error("x: failed"))).toBe(false);
    expect(isToolFailure({ isToolFailure: true, message: "not an Error" })).toBe(false);
    expect(isToolFailure("x: failed")).toBe(false);
  });
});

describe("ModelFailure", () => {
  it("names its kind and extra fields", () => {
    const failure = new ModelFailure("context_exhausted", "context window exceeded", {
      reason: "provider",
    });
    expect([failure.kind, failure.message, failure.fields]).toEqual([
      "context_exhausted",
      "context window exceeded",
      { reason: "provider" },
    ]);
    expect(new ModelFailure("completion", "no reply").fields).toEqual({});
  });
});

describe("isJsonObject", () => {
  it("accepts objects only", () => {
    expect(isJsonObject({ a: 1 })).toBe(true);
    expect([isJsonObject(null), isJsonObject([]), isJsonObject("{}")]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe("definePlugin, definePack, defineTool", () => {
  it("return their definitions unchanged", async () => {
    const tool = defineTool<{ text: string }>({
      id: "notes/add",
      description: "Adds a note.",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      trust: "trusted",
      run: (args) => `added ${args.text}`,
    });
    const pack = definePack({
      vendor: "acme",
      name: "notes",
      description: "Notes.",
      tools: [tool],
    });
    const added: unknown[] = [];
    const plugin = definePlugin({
      name: "acme-notes",
      setup(api) {
        api.addPack(pack);
      },
    });
    await plugin.setup(
      {
        addPack: (p) => added.push(p),
        provideService: () => undefined,
        addModelProvider: () => undefined,
      },
      undefined,
    );
    expect(added).toEqual([pack]);
    expect(pack.tools[0]).toBe(tool);
  });
});
