import { describe, expect, it } from "vitest";
import { defaultHost, readHost } from "./read-host";
import { issueCollector } from "./test-support";

describe("readHost", () => {
  it("defaults to all three official Packs, both services, nothing else", () => {
    expect(defaultHost()).toEqual({
      packs: ["web", "user-input", "subagents"],
      services: ["input-broker", "search-provider"],
      unavailable: {},
      fixtureTools: [],
      fixturePreludes: {},
      limits: {},
    });
  });

  it("reads packs: [] as no official Pack", () => {
    const { sink, issues } = issueCollector();
    expect(readHost(sink, { packs: [] }, ["host"]).packs).toEqual([]);
    expect(issues).toEqual([]);
  });

  it("reads a fixture tool with its defaults and its Pack", () => {
    const { sink, issues } = issueCollector();
    const host = readHost(sink, { fixture_tools: [{ id: "stats/deep/read", fails: "down" }] }, [
      "host",
    ]);
    expect(host.fixtureTools).toEqual([
      {
        id: "stats/deep/read",
        packId: "stats",
        description: "",
        parameters: { type: "object", properties: {} },
        structured: false,
        trusted: true,
        declared: false,
        vendor: "fixture",
        behaviour: { kind: "fails", message: "down" },
      },
    ]);
    expect(issues).toEqual([]);
  });

  it("keeps any JSON as fixture tool parameters, so refusals can be tested", () => {
    const { sink, issues } = issueCollector();
    const host = readHost(
      sink,
      { fixture_tools: [{ id: "stats/bad", parameters: "scalar", returns: "" }] },
      ["host"],
    );
    expect(host.fixtureTools[0]?.parameters).toBe("scalar");
    expect(host.fixtureTools[0]?.behaviour).toEqual({ kind: "returns", text: "" });
    expect(issues).toEqual([]);
  });

  it("reads a declared fixture Pack's vendor", () => {
    const { sink, issues } = issueCollector();
    const host = readHost(
      sink,
      { fixture_tools: [{ id: "poop/flush", declared: true, vendor: "acme", returns: "f" }] },
      ["host"],
    );
    expect([host.fixtureTools[0]?.declared, host.fixtureTools[0]?.vendor]).toEqual([true, "acme"]);
    expect(issues).toEqual([]);
  });

  it("reads limits, snapshot and preludes", () => {
    const { sink, issues } = issueCollector();
    const host = readHost(
      sink,
      {
        limits: { log_events: 0 },
        snapshot: { selected_model: "m-1", workspace_root: null },
        fixture_preludes: { kit: "answer = 42" },
        unavailable: { web: "down" },
      },
      ["host"],
    );
    expect(host.limits).toEqual({ logEvents: 0 });
    expect(host.snapshot).toEqual({ selected_model: "m-1", workspace_root: null });
    expect(host.fixturePreludes).toEqual({ kit: "answer = 42" });
    expect(host.unavailable).toEqual({ web: "down" });
    expect(issues).toEqual([]);
  });

  it("reports each problem at its key path", () => {
    const { sink, issues } = issueCollector();
    readHost(
      sink,
      { packs: ["web", "mail"], services: "both", fixture_tools: [{ id: "/x", returns: "" }] },
      ["host"],
    );
    expect(issues).toEqual([
      'host.packs[1]: must be one of web, user-input, subagents; got a string ("mail")',
      'host.services: must be a list drawn from input-broker, search-provider, got a string ("both")',
      'host.fixture_tools[0].id: "/x" is not a tool id: write <pack>/<tool>, such as stats/read',
    ]);
  });
});
