import type { CatalogTool } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { packOfTool, RunTools } from "./run-tools";
import { ToolScope } from "./tool-scope";

function tool(id: string): CatalogTool {
  return {
    id,
    pack: packOfTool(id),
    wireName: id.replace(/[/.]/g, "_"),
    description: id,
    parameters: { type: "object", properties: {} },
    structured: false,
  };
}

const run = new RunTools(
  {
    tools: [tool("web/fetch"), tool("web/search"), tool("user-input/ask")],
    packs: null,
    preludes: [],
    dropped: [],
    models: [],
  },
  ["web"],
);

describe("ToolScope", () => {
  it("keeps each tool and Pack once, at its first offer", () => {
    const scope = new ToolScope();
    scope.offerTools(["web/search", "web/fetch"]);
    scope.offerTools(["web/fetch", "user-input/ask", "web/search"]);
    scope.offerPacks(["web", "user-input", "web"]);
    expect(scope.offeredTools).toEqual(["web/search", "web/fetch", "user-input/ask"]);
    expect(scope.offeredPacks).toEqual(["web", "user-input"]);
  });

  it("puts tools.offer tools first, then each Pack's tools in id order, each once", () => {
    const scope = new ToolScope();
    scope.offerPacks(["web"]);
    scope.offerTools(["web/search"]);
    expect(scope.scopeToolIds(run)).toEqual(["web/search", "web/fetch"]);
  });

  it("sets the counts up at the first call, seeding the scope at 0", () => {
    const scope = new ToolScope();
    expect(scope.counts).toBeNull();
    scope.offerPacks(["web"]);
    scope.countDispatch(run, "user-input/ask");
    expect(Object.fromEntries(scope.counts ?? [])).toEqual({
      "web/fetch": 0,
      "web/search": 0,
      "user-input/ask": 1,
    });
  });

  it("picks up tools offered after the last call only at the next call", () => {
    const scope = new ToolScope();
    scope.countDispatch(run, "grab");
    scope.offerTools(["web/fetch"]);
    expect(scope.counts?.has("web/fetch")).toBe(false);
    scope.countDispatch(run, "grab");
    expect(Object.fromEntries(scope.counts ?? [])).toEqual({ grab: 2, "web/fetch": 0 });
  });
});
