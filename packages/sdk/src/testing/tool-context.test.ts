import { describe, expect, it } from "vitest";
import { INPUT_BROKER, type InputBroker } from "../services";
import { defineTool } from "../tool";
import { TestStore } from "./test-store";
import { TEST_ORIGIN, testServices, testToolContext } from "./tool-context";

describe("testToolContext", () => {
  it("lends a fresh empty store, no services, a live signal and a script origin", async () => {
    const ctx = testToolContext();
    expect(ctx.toolId).toBe("test/tool");
    expect(ctx.name).toBe("test_tool");
    expect(ctx.origin).toEqual(TEST_ORIGIN);
    expect(ctx.effectId).toBe("0.1/1");
    expect(ctx.runId).toBeUndefined();
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.services.has(INPUT_BROKER)).toBe(false);
    expect(ctx.services.get(INPUT_BROKER)).toBeUndefined();
    expect(await ctx.store.list()).toEqual([]);
    expect(testToolContext().store).not.toBe(ctx.store);
  });

  it("takes the store, services, signal, ids and origin fields it is given", async () => {
    const store = new TestStore({ "notes.md": "- a\n" });
    const broker: InputBroker = { ask: async () => "yes" };
    const controller = new AbortController();
    const ctx = testToolContext({
      toolId: "notes/add",
      store,
      services: { [INPUT_BROKER]: broker },
      signal: controller.signal,
      origin: { caller: "model", section: "Plan" },
      effectId: "0.2/4",
      runId: "r-7",
    });
    expect(ctx.name).toBe("notes_add");
    expect(ctx.effectId).toBe("0.2/4");
    expect(ctx.runId).toBe("r-7");
    expect(ctx.store).toBe(store);
    expect(ctx.services.get(INPUT_BROKER)).toBe(broker);
    expect(ctx.signal).toBe(controller.signal);
    expect(ctx.origin).toEqual({ ...TEST_ORIGIN, caller: "model", section: "Plan" });
    expect(testToolContext({ toolId: "notes/add", name: "add" }).name).toBe("add");
  });

  it("runs a tool against its store", async () => {
    const add = defineTool<{ text: string }>({
      id: "notes/add",
      description: "Adds a note.",
      parameters: { type: "object" },
      trust: "trusted",
      async run(args, ctx) {
        await ctx.store.append("notes.md", `- ${args.text}\n`);
        return ctx.name;
      },
    });
    const store = new TestStore();
    expect(await add.run({ text: "x" }, testToolContext({ toolId: add.id, store }))).toBe(
      "notes_add",
    );
    expect(store.files()).toEqual({ "notes.md": "- x\n" });
  });
});

describe("testServices", () => {
  it("answers only its own ids, not inherited names", () => {
    const services = testServices({ "acme/clock": { now: 1 } });
    expect(services.has("acme/clock")).toBe(true);
    expect(services.get("acme/clock")).toEqual({ now: 1 });
    expect(services.has("toString")).toBe(false);
    expect(services.get("toString")).toBeUndefined();
  });
});
