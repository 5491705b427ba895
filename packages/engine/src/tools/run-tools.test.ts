import type { CatalogTool, RunCatalog, RunPack } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { packOfTool, RunTools } from "./run-tools";

function tool(id: string, wireName: string | null = id.replace(/[/.]/g, "_")): CatalogTool {
  return {
    id,
    pack: packOfTool(id),
    wireName,
    description: `${id} tool`,
    parameters: { type: "object", properties: {} },
    structured: false,
  };
}

function pack(id: string, declared = false, unavailable: string | null = null): RunPack {
  return { id, fullName: `runvil/${id}`, declared, unavailable };
}

function catalog(tools: CatalogTool[], packs: RunPack[] | null): RunCatalog {
  return { tools, packs, preludes: [], dropped: [], models: [] };
}

const ids = (tools: readonly CatalogTool[]): string[] => tools.map((t) => t.id);

describe("RunTools", () => {
  it("holds the offering in tool id order, whatever order the catalog lists", () => {
    const run = new RunTools(
      catalog([tool("web/search"), tool("user-input/ask"), tool("web/fetch")], null),
      [],
    );
    expect(ids(run.offering)).toEqual(["user-input/ask", "web/fetch", "web/search"]);
    expect(run.offeringIds).toEqual(["user-input/ask", "web/fetch", "web/search"]);
  });

  it("leaves tools without a wire name out of the offering but keeps them callable", () => {
    const run = new RunTools(catalog([tool("task/status", null), tool("web/fetch")], null), []);
    expect(ids(run.offering)).toEqual(["web/fetch"]);
    expect(run.offered("task/status")).toBeUndefined();
    expect(run.catalogTool("task/status")?.id).toBe("task/status");
    expect(run.packs.get("task")?.tools).toEqual([]);
  });

  it("finds an offered tool by its wire name, never a left-out one", () => {
    const run = new RunTools(catalog([tool("task/status", null), tool("web/fetch")], null), []);
    expect(run.offeredByWireName("web_fetch")?.id).toBe("web/fetch");
    expect(run.offeredByWireName("web/fetch")).toBeUndefined();
    expect(run.offeredByWireName("task_status")).toBeUndefined();
  });

  it("without a Host report: the declared Packs plus every Pack with a catalog tool", () => {
    const run = new RunTools(catalog([tool("web/fetch")], null), ["user-input"]);
    expect([...run.packs.keys()]).toEqual(["user-input", "web"]);
    expect(run.requiredPacks).toEqual(["user-input"]);
    expect(run.extraPacks).toEqual(["web"]);
  });

  it("with a Host report: usable Packs get objects even without tools, sorted by id", () => {
    const run = new RunTools(
      catalog(
        [tool("web/search"), tool("web/fetch"), tool("user-input/ask")],
        [pack("web"), pack("user-input", true), pack("subagents")],
      ),
      ["user-input"],
    );
    expect(run.requiredPacks).toEqual(["user-input"]);
    expect(run.extraPacks).toEqual(["subagents", "web"]);
    expect(ids(run.requiredTools)).toEqual(["user-input/ask"]);
    expect(ids(run.extraTools)).toEqual(["web/fetch", "web/search"]);
    expect(ids(run.packs.get("web")?.tools ?? [])).toEqual(["web/fetch", "web/search"]);
    expect(run.packs.get("subagents")?.tools).toEqual([]);
  });

  it("gives no object to an unavailable Pack, also one reported both ways", () => {
    const run = new RunTools(
      catalog(
        [tool("web/fetch"), tool("kit/run")],
        [
          pack("web"),
          pack("web", false, "web needs runvil/search-provider, and this host provides none"),
          pack("kit", false, "broken"),
        ],
      ),
      [],
    );
    expect(run.packs.has("web")).toBe(false);
    expect(run.packs.has("kit")).toBe(false);
    expect(run.unavailable.get("web")).toBe(
      "web needs runvil/search-provider, and this host provides none",
    );
    expect(run.offering).toEqual([]);
  });

  it("gives an object to a Pack neither declared nor reported when it has a tool", () => {
    const run = new RunTools(catalog([tool("stats/read")], [pack("subagents")]), []);
    expect(run.extraPacks).toEqual(["stats", "subagents"]);
  });

  it("with a Host report, gives no object to an unreported undeclared Pack whose tools are all left out", () => {
    // tools.txt: "A Pack that is neither declared nor reported usable has a Pack object only
    // when it offers at least one tool to the run."
    const run = new RunTools(
      catalog([tool("task/status", null), tool("stats/read")], [pack("subagents")]),
      [],
    );
    expect(run.extraPacks).toEqual(["stats", "subagents"]);
    expect(run.packs.has("task")).toBe(false);
    expect(run.catalogTool("task/status")?.id).toBe("task/status");
  });

  it("matches ownership on the whole first segment", () => {
    expect(packOfTool("web/fetch")).toBe("web");
    expect(packOfTool("webx/a/b")).toBe("webx");
    expect(packOfTool("solo")).toBe("solo");
  });

  it("counts a Pack declared in the Host report as required", () => {
    const run = new RunTools(catalog([tool("poop/flush")], [pack("poop", true)]), []);
    expect(run.requiredPacks).toEqual(["poop"]);
    expect(ids(run.requiredTools)).toEqual(["poop/flush"]);
  });
});
