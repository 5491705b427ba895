import { definePack, type PackDefinition, type ToolContext, ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { fixturePackDescription, fixtureToolDefinition, scenarioPacks } from "./fixture-packs";
import { defaultHost } from "./read-host";
import type { FixtureTool, ScenarioHost } from "./scenario-types";

const ctx = {} as ToolContext;

function fixture(overrides: Partial<FixtureTool> & { id: string }): FixtureTool {
  return {
    packId: overrides.id.slice(0, overrides.id.indexOf("/")),
    description: "",
    parameters: { type: "object", properties: {} },
    structured: false,
    trusted: true,
    declared: false,
    vendor: "fixture",
    behaviour: { kind: "returns", text: "" },
    ...overrides,
  };
}

function host(overrides: Partial<ScenarioHost>): ScenarioHost {
  return { ...defaultHost(), ...overrides };
}

const webFetch = {
  id: "web/fetch",
  description: "Fetch a web page and return its readable text.",
  parameters: { type: "object" },
  trust: "untrusted",
  run: () => "official page",
} as const;

const web: PackDefinition = definePack({
  vendor: "runvil",
  name: "web",
  description: "Search the web and fetch pages",
  services: ["runvil/search-provider"],
  tools: [webFetch],
});

const userInput: PackDefinition = definePack({
  vendor: "runvil",
  name: "user-input",
  description: "Ask the operator.",
  prelude: "input = {}",
  tools: [],
  start: () => undefined,
});

function summary(packs: readonly PackDefinition[]) {
  return packs.map((pack) => ({
    name: `${pack.vendor}/${pack.name}`,
    tools: pack.tools.map((tool) => tool.id),
    prelude: pack.prelude ?? null,
  }));
}

describe("fixtureToolDefinition", () => {
  it("keeps the entry's data and answers with the returns text verbatim", async () => {
    const tool = fixtureToolDefinition(
      fixture({
        id: "stats/read",
        description: "Reads stats.",
        parameters: "scalar",
        structured: true,
        trusted: false,
        behaviour: { kind: "returns", text: '{"text":"typed","images":[]}' },
      }),
    );
    expect([tool.id, tool.description, tool.parameters, tool.output, tool.trust]).toEqual([
      "stats/read",
      "Reads stats.",
      "scalar",
      "structured",
      "untrusted",
    ]);
    expect(await tool.run({}, ctx)).toBe('{"text":"typed","images":[]}');
  });

  it("is plain and trusted by default", () => {
    const tool = fixtureToolDefinition(fixture({ id: "a/b" }));
    expect([tool.output, tool.trust]).toEqual(["plain", "trusted"]);
  });

  it("throws a ToolFailure with the fails message", async () => {
    const tool = fixtureToolDefinition(
      fixture({ id: "stats/read", behaviour: { kind: "fails", message: "stats are offline" } }),
    );
    let thrown: unknown;
    try {
      await tool.run({}, ctx);
    } catch (error) {
      thrown = error;
    }
    expect(ToolFailure.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toBe("stats are offline");
  });
});

describe("scenarioPacks", () => {
  it("serves the official Packs unchanged when the case has no fixtures", () => {
    const packs = scenarioPacks(defaultHost(), [web, userInput]);
    expect(summary(packs)).toEqual([
      { name: "runvil/web", tools: ["web/fetch"], prelude: null },
      { name: "runvil/user-input", tools: [], prelude: "input = {}" },
    ]);
    expect(packs[0]?.services).toEqual(["runvil/search-provider"]);
    expect(packs[0]?.description).toBe("Search the web and fetch pages");
  });

  it("groups undeclared fixture tools into runvil Packs named by their first segment", () => {
    const packs = scenarioPacks(
      host({
        fixtureTools: [
          fixture({ id: "stats/read.v2" }),
          fixture({ id: "task/status" }),
          fixture({ id: "stats/read/v2" }),
        ],
      }),
      [],
    );
    expect(summary(packs)).toEqual([
      { name: "runvil/stats", tools: ["stats/read.v2", "stats/read/v2"], prelude: null },
      { name: "runvil/task", tools: ["task/status"], prelude: null },
    ]);
    expect(packs[0]?.description).toBe(fixturePackDescription("stats"));
    expect(fixturePackDescription("stats")).toBe("The scenario's fixture Pack stats.");
  });

  it("puts a declared fixture tool in its vendor's Pack, beside the runvil Pack of that id", () => {
    const packs = scenarioPacks(
      host({
        fixtureTools: [
          fixture({ id: "web/fetch", declared: true, vendor: "acme" }),
          fixture({ id: "poop/flush", declared: true, vendor: "acme" }),
          fixture({ id: "kit/run", declared: true }),
        ],
      }),
      [web],
    );
    expect(summary(packs)).toEqual([
      { name: "runvil/web", tools: ["web/fetch"], prelude: null },
      { name: "acme/web", tools: ["web/fetch"], prelude: null },
      { name: "acme/poop", tools: ["poop/flush"], prelude: null },
      { name: "fixture/kit", tools: ["kit/run"], prelude: null },
    ]);
    expect(packs[1]?.services).toBeUndefined();
  });

  it("merges an undeclared fixture tool into the official Pack of its id without changing it", async () => {
    const packs = scenarioPacks(
      host({
        fixtureTools: [
          fixture({ id: "web/extra" }),
          fixture({ id: "web/fetch", behaviour: { kind: "returns", text: "fixture page" } }),
        ],
      }),
      [web],
    );
    expect(summary(packs)).toEqual([
      { name: "runvil/web", tools: ["web/fetch", "web/extra"], prelude: null },
    ]);
    expect(packs[0]?.services).toEqual(["runvil/search-provider"]);
    expect(await packs[0]?.tools[0]?.run({}, ctx)).toBe("fixture page");
    expect(web.tools).toEqual([webFetch]);
  });

  it("adds a fixture prelude's Pack, sharing it with fixture tools of that id", () => {
    const packs = scenarioPacks(
      host({
        fixturePreludes: { helper: "local pack = ...\nhelper = {}", alpha: "a = 1" },
        fixtureTools: [fixture({ id: "helper/run" })],
      }),
      [userInput],
    );
    expect(summary(packs)).toEqual([
      { name: "runvil/user-input", tools: [], prelude: "input = {}" },
      { name: "runvil/helper", tools: ["helper/run"], prelude: "local pack = ...\nhelper = {}" },
      { name: "runvil/alpha", tools: [], prelude: "a = 1" },
    ]);
  });

  it("replaces an official Pack's prelude with a fixture prelude of its id", () => {
    const packs = scenarioPacks(host({ fixturePreludes: { "user-input": "x = 1" } }), [userInput]);
    expect(summary(packs)).toEqual([{ name: "runvil/user-input", tools: [], prelude: "x = 1" }]);
    expect(userInput.prelude).toBe("input = {}");
  });

  it("makes every Pack of an unavailable id fail to start with the reason", async () => {
    const packs = scenarioPacks(
      host({
        unavailable: { web: "the web Pack failed to start" },
        fixtureTools: [fixture({ id: "web/fetch", declared: true, vendor: "acme" })],
      }),
      [web, userInput],
    );
    expect(summary(packs).map((pack) => pack.name)).toEqual([
      "runvil/web",
      "runvil/user-input",
      "acme/web",
    ]);
    for (const index of [0, 2]) {
      expect(() => packs[index]?.start?.()).toThrow("the web Pack failed to start");
    }
    expect(await packs[1]?.start?.()).toBeUndefined();
  });

  it("adds an empty runvil Pack to carry an unavailable reason when no Pack has the id", () => {
    const packs = scenarioPacks(host({ unavailable: { ghost: "not today" } }), []);
    expect(summary(packs)).toEqual([{ name: "runvil/ghost", tools: [], prelude: null }]);
    expect(() => packs[0]?.start?.()).toThrow("not today");
  });
});
