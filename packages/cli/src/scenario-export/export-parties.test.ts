import type { EffectRecord } from "@runvil/journal";
import type { RunCatalog } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { exportParties } from "./export-parties";
import { effect } from "./test-effects";

const reply = (text: string, calls: { id: string; name: string; arguments: object }[] = []) => ({
  text,
  toolCalls: calls,
  finishReason: calls.length > 0 ? "tool_calls" : "stop",
  usage: { inputTokens: 12, outputTokens: 3 },
});

const tool = (id: string, args: object = {}) => ({
  tool: id,
  name: id.replace("/", "_"),
  arguments: args,
  caller: "script",
  callId: "",
});

const catalog: RunCatalog = {
  tools: [
    {
      id: "stats/read",
      pack: "stats",
      wireName: "stats_read",
      description: "Reads.",
      parameters: { type: "object", properties: {} },
      structured: false,
    },
    {
      id: "stats/reset",
      pack: "stats",
      wireName: "stats_reset",
      description: "Resets.",
      parameters: { type: "object", properties: {} },
      structured: false,
    },
    {
      id: "kit/go",
      pack: "kit",
      wireName: "kit_go",
      description: "Goes.",
      parameters: { type: "object", properties: {} },
      structured: false,
    },
  ],
  packs: [
    { id: "stats", fullName: "acme/stats", declared: true, unavailable: null },
    { id: "kit", fullName: "acme/kit", declared: true, unavailable: null },
    {
      id: "web",
      fullName: "runvil/web",
      declared: false,
      unavailable: "web needs runvil/search-provider, and this host provides none",
    },
  ],
  preludes: [{ pack: "kit", source: "function go() end" }],
  dropped: [],
  models: [
    {
      label: "writer",
      model: "local:m",
      contextWindow: 4096,
      maxOutputTokens: 512,
      tools: true,
      prices: { inputPerMillion: 1, outputPerMillion: 2 },
      settings: {},
      maxRounds: 20,
    },
  ],
};

const exportOf = (effects: EffectRecord[]) =>
  exportParties("R", effects, catalog, { writer: "local:m" });

describe("the scripted parties of a recorded run", () => {
  it("scripts model replies in request order, with the model's facts, usage and failures", () => {
    const parties = exportOf([
      effect(
        "model",
        { turn: 1, messages: [{}], tools: [{ name: "add" }] },
        { output: reply("", [{ id: "c1", name: "add", arguments: { b: 1, a: 2 } }]) },
      ),
      effect(
        "model",
        { turn: 2, messages: [{}, {}, {}], tools: [] },
        {
          output: {
            text: "",
            toolCalls: [],
            finishReason: "length",
            usage: { inputTokens: 0, outputTokens: 0 },
          },
        },
      ),
      effect(
        "model",
        { turn: 3, messages: [{}], tools: [] },
        {
          failure: {
            type: "model",
            kind: "context_exhausted",
            message: "too long",
            fields: { reason: "provider" },
          },
        },
      ),
    ]);
    expect(parties.models).toEqual({
      bind: { writer: "local:m" },
      catalog: {
        "local:m": {
          context_window: 4096,
          max_output_tokens: 512,
          tools: true,
          prices: { input: 1, output: 2 },
        },
      },
      replies: [
        {
          tool_calls: [{ id: "c1", name: "add", arguments: { b: 1, a: 2 } }],
          usage: { input: 12, output: 3 },
        },
        { empty: { finish_reason: "length" } },
        { fail: { kind: "context_exhausted", message: "too long", reason: "provider" } },
      ],
    });
    expect(parties.modelRequests).toEqual([
      { tools: ["add"], messages: 1 },
      { tools: [], messages: 3 },
      { tools: [], messages: 1 },
    ]);
    expect(parties.unavailable).toEqual({
      web: "web needs runvil/search-provider, and this host provides none",
    });
  });

  it("refuses model rounds of two chains, and a round that failed outside the provider contract", () => {
    expect(() =>
      exportOf([
        effect("model", { messages: [], tools: [] }, { output: reply("a") }),
        effect("model", { messages: [], tools: [] }, { output: reply("b") }, "0.1"),
      ]),
    ).toThrow(
      /^run R: effect 0\.1\/\d+ \(model, section "Main"\) comes from chain 0\.1 while effect 0\.1\/\d+ \(model, section "Main"\) came from chain 0: a scenario takes its model replies in request order/,
    );
    expect(() =>
      exportOf([
        effect(
          "model",
          { messages: [], tools: [] },
          { failure: { type: "error", name: "TypeError", message: "wire cut" } },
        ),
      ]),
    ).toThrow(
      /\(model round, section "Main"\) failed outside the model provider contract \(TypeError: wire cut\)/,
    );
  });

  it("scripts asks as operator answers and web calls as pages and search results", () => {
    const parties = exportOf([
      effect("tool", tool("user-input/ask"), { output: { text: "Ada", trusted: false } }),
      effect("tool", tool("user-input/ask"), {
        failure: { type: "tool", message: "window closed" },
      }),
      effect("tool", tool("web/fetch", { url: "https://a.test/" }), {
        output: { text: "page A", trusted: false },
      }),
      effect("tool", tool("web/fetch", { url: "https://a.test/" }), {
        output: { text: "page A", trusted: false },
      }),
      effect("tool", tool("web/fetch", { url: "https://b.test/" }), {
        failure: { type: "tool", message: "web_fetch: no page at https://b.test/" },
      }),
      effect("tool", tool("web/search", { query: "lua" }), {
        output: { text: "1. Lua", trusted: false },
      }),
    ]);
    expect(parties.operator).toEqual(["Ada", { fail: "window closed" }]);
    expect(parties.web).toEqual({
      pages: { "https://a.test/": "page A" },
      search: { lua: "1. Lua" },
    });
  });

  it("refuses a web failure the fixture web cannot give, and a page that changed between fetches", () => {
    expect(() =>
      exportOf([
        effect("tool", tool("web/fetch", { url: "https://a.test/" }), {
          failure: {
            type: "tool",
            message: "web_fetch: the page at https://a.test/ answered HTTP 404 Not Found",
          },
        }),
      ]),
    ).toThrow(
      /web\/fetch of "https:\/\/a\.test\/".* failed with "web_fetch: the page at https:\/\/a\.test\/ answered HTTP 404 Not Found": a scenario's web serves a page/,
    );
    expect(() =>
      exportOf([
        effect("tool", tool("web/fetch", { url: "https://a.test/" }), {
          output: { text: "one", trusted: false },
        }),
        effect("tool", tool("web/fetch", { url: "https://a.test/" }), {
          output: { text: "two", trusted: false },
        }),
      ]),
    ).toThrow(/answered differently from an earlier call of the same url/);
  });

  it("serves another Pack's tools as fixture tools with their one answer, and refuses what a fixture cannot give", () => {
    const parties = exportOf([
      effect("tool", tool("stats/read"), { output: { text: "42", trusted: false } }),
      effect("tool", tool("stats/read"), { output: { text: "42", trusted: false } }),
    ]);
    expect(parties.fixtureTools).toEqual([
      {
        id: "stats/read",
        description: "Reads.",
        parameters: { type: "object", properties: {} },
        structured: false,
        trusted: false,
        declared: true,
        vendor: "acme",
        returns: "42",
      },
      {
        id: "stats/reset",
        description: "Resets.",
        parameters: { type: "object", properties: {} },
        structured: false,
        declared: true,
        vendor: "acme",
        fails: "stats/reset was not called in the recorded run",
      },
    ]);
    expect(() =>
      exportOf([
        effect("tool", tool("stats/read"), { output: { text: "1", trusted: true } }),
        effect("tool", tool("stats/read"), { output: { text: "2", trusted: true } }),
      ]),
    ).toThrow(
      /\(tool stats\/read, section "Main"\) answered differently from effect .*: a scenario's fixture tool answers every call the same/,
    );
    expect(() =>
      exportOf([effect("tool", tool("kit/go"), { output: { text: "", trusted: true } })]),
    ).toThrow(
      /its Pack kit has a prelude, and a scenario serves another Pack's tools \(host\.fixture_tools\) but not its prelude/,
    );
    expect(() =>
      exportOf([effect("tool", tool("nowhere/x"), { output: { text: "", trusted: true } })]),
    ).toThrow(/the tool is not in the run's catalog as a tool a scenario can serve/);
  });
});
