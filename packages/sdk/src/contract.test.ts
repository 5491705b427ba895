import { describe, expect, it } from "vitest";
import { isJsonObject } from "./json";
import { ModelFailure } from "./model";
import { definePack } from "./pack";
import { definePlugin } from "./plugin";
import { defineTool } from "./tool";
import { ToolFailure } from "./tool-failure";

describe("ToolFailure", () => {
  it("carries a model-safe message and keeps the cause apart", () => {
    const failure = new ToolFailure("web_fetch: missing url argument", {
      cause: new Error("socket reset"),
    });
    expect(failure.message).toBe("web_fetch: missing url argument");
    expect(failure.name).toBe("ToolFailure");
    expect((failure.cause as Error).message).toBe("socket reset");
    expect(ToolFailure.isInstance(failure)).toBe(true);
  });

  it("is recognised across copies of the SDK by its brand, and nothing else is", () => {
    const fromAnotherCopy = Object.assign(new Error("x: failed"), {
      [Symbol.for("runvil.ToolFailure")]: true,
    });
    expect(ToolFailure.isInstance(fromAnotherCopy)).toBe(true);
    expect(ToolFailure.isInstance(new Error("x: failed"))).toBe(false);
    expect(ToolFailure.isInstance({ isToolFailure: true, message: "an old marker" })).toBe(false);
    const notTrue = { [Symbol.for("runvil.ToolFailure")]: "yes" };
    expect(ToolFailure.isInstance(notTrue)).toBe(false);
    expect(ToolFailure.isInstance(new ModelFailure("completion", "x"))).toBe(false);
    expect(ToolFailure.isInstance("x: failed")).toBe(false);
    expect(ToolFailure.isInstance(null)).toBe(false);
  });

  it("keeps its brand off the instance and hands it to subclasses", () => {
    class FetchFailure extends ToolFailure {}
    const failure = new FetchFailure("web_fetch: no page at x");
    expect(ToolFailure.isInstance(failure)).toBe(true);
    expect(Object.getOwnPropertySymbols(failure)).toEqual([]);
    expect({ ...failure }).toEqual({ name: "ToolFailure" });
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

  it("is recognised across copies of the SDK by its brand, and nothing else is", () => {
    expect(ModelFailure.isInstance(new ModelFailure("cancelled", "stopped"))).toBe(true);
    const fromAnotherCopy = Object.assign(new Error("no reply"), {
      [Symbol.for("runvil.ModelFailure")]: true,
    });
    expect(ModelFailure.isInstance(fromAnotherCopy)).toBe(true);
    expect(ModelFailure.isInstance(new ToolFailure("x: failed"))).toBe(false);
    expect(ModelFailure.isInstance(new Error("no reply"))).toBe(false);
    expect(ModelFailure.isInstance(undefined)).toBe(false);
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
