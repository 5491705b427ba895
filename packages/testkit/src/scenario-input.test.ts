import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScenarioFormatError } from "./format-error";
import { defaultHost } from "./read-host";
import { RUN_SCENARIO_SOURCE, scenarioCaseOf } from "./scenario-input";

const PROMPT =
  "---\nname: t\ndescription: t\nrunvil: 0\n---\n\n# T\n\n## Main\n\n```lua\nreturn 'x'\n```\n";

describe("scenarioCaseOf", () => {
  it("applies every default of the format to a bare prompt", () => {
    const scenarioCase = scenarioCaseOf({ prompt: PROMPT });
    expect(scenarioCase).toEqual({
      index: 0,
      line: 0,
      name: RUN_SCENARIO_SOURCE,
      prompt: PROMPT,
      host: defaultHost(),
      run: {
        name: "run-1",
        seed: 0,
        start: "2000-01-01T00:00:00Z",
        startEpochMs: Date.UTC(2000, 0, 1),
      },
      models: { bind: {}, replies: [] },
      operator: [],
      web: { pages: {}, search: {} },
      store: {},
      expect: {},
    });
    expect(RUN_SCENARIO_SOURCE).toBe("runScenario");
  });

  it("reads every camelCase input into the case", () => {
    const scenarioCase = scenarioCaseOf({
      prompt: PROMPT,
      args: "hi",
      host: {
        packs: ["web"],
        services: ["search-provider"],
        unavailable: { web: "down" },
        fixtureTools: [
          { id: "stats/read", structured: true, trusted: false, returns: "{}" },
          { id: "poop/flush", declared: true, vendor: "acme", fails: "clogged" },
        ],
        fixturePreludes: { kit: "answer = 42" },
        snapshot: { selected_model: "m-1", workspace_root: null },
        limits: { logEvents: 4, luaMemoryBytes: 1024 },
      },
      run: { name: "execute-test", seed: 7, start: "2000-02-29T00:00:00.123Z" },
      models: {
        bind: { writer: "claude-sonnet-4-6" },
        catalog: {
          "claude-sonnet-4-6": { contextWindow: 1000, maxOutputTokens: 10, tools: false },
        },
        replies: [
          { text: "final", usage: { input: 4, output: 2 } },
          { toolCalls: [{ id: "call_1", name: "web_search", arguments: { query: "lua" } }] },
          { fail: { kind: "context_exhausted", reason: "provider", message: "full" } },
          { empty: { finishReason: "length", usage: { output: 9 } } },
          { empty: {} },
        ],
      },
      operator: ["hi", { fail: "closed" }, { hold: true }],
      web: { pages: { "https://a/": "A" }, search: { q: "1. r" } },
      store: { "note.md": "hello" },
      cancelAfterMs: 50,
      stopAfterMs: 60,
    });
    expect(scenarioCase.args).toBe("hi");
    expect(scenarioCase.host).toEqual({
      packs: ["web"],
      services: ["search-provider"],
      unavailable: { web: "down" },
      fixtureTools: [
        {
          id: "stats/read",
          packId: "stats",
          description: "",
          parameters: { type: "object", properties: {} },
          structured: true,
          trusted: false,
          declared: false,
          vendor: "fixture",
          behaviour: { kind: "returns", text: "{}" },
        },
        {
          id: "poop/flush",
          packId: "poop",
          description: "",
          parameters: { type: "object", properties: {} },
          structured: false,
          trusted: true,
          declared: true,
          vendor: "acme",
          behaviour: { kind: "fails", message: "clogged" },
        },
      ],
      fixturePreludes: { kit: "answer = 42" },
      snapshot: { selected_model: "m-1", workspace_root: null },
      limits: { logEvents: 4, luaMemoryBytes: 1024 },
    });
    expect(scenarioCase.run).toEqual({
      name: "execute-test",
      seed: 7,
      start: "2000-02-29T00:00:00.123Z",
      startEpochMs: Date.UTC(2000, 1, 29, 0, 0, 0, 123),
    });
    expect(scenarioCase.models).toEqual({
      bind: { writer: "claude-sonnet-4-6" },
      catalog: { "claude-sonnet-4-6": { contextWindow: 1000, maxOutputTokens: 10, tools: false } },
      replies: [
        { kind: "message", text: "final", toolCalls: [], usage: { input: 4, output: 2 } },
        {
          kind: "message",
          text: "",
          toolCalls: [{ id: "call_1", name: "web_search", arguments: { query: "lua" } }],
        },
        {
          kind: "fail",
          failure: { kind: "context_exhausted", reason: "provider", message: "full" },
        },
        { kind: "empty", finishReason: "length", usage: { input: 0, output: 9 } },
        { kind: "empty" },
      ],
    });
    expect(scenarioCase.operator).toEqual([
      { kind: "answer", text: "hi" },
      { kind: "fail", message: "closed" },
      { kind: "hold" },
    ]);
    expect(scenarioCase.web).toEqual({ pages: { "https://a/": "A" }, search: { q: "1. r" } });
    expect(scenarioCase.store).toEqual({ "note.md": "hello" });
    expect([scenarioCase.cancelAfterMs, scenarioCase.stopAfterMs]).toEqual([50, 60]);
  });

  it("reads promptFile relative to the working directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "testkit-input-"));
    const path = join(dir, "p.md");
    writeFileSync(path, PROMPT);
    const scenarioCase = scenarioCaseOf({ promptFile: path });
    expect([scenarioCase.prompt, scenarioCase.promptPath]).toEqual([PROMPT, path]);
  });

  it("throws a ScenarioFormatError listing every problem, in the file's key spelling", () => {
    let thrown: unknown;
    try {
      scenarioCaseOf({
        prompt: PROMPT,
        host: { fixtureTools: [{ id: "nopack", returns: "x", fails: "y" }] },
        operator: [{ hold: false as true }],
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScenarioFormatError);
    expect((thrown as ScenarioFormatError).issues.map((issue) => issue.keyPath)).toEqual([
      "host.fixture_tools[0].id",
      "host.fixture_tools[0]",
      "operator[0].hold",
    ]);
    expect((thrown as Error).message.split("\n")[0]).toBe(
      'runScenario: host.fixture_tools[0].id: "nopack" is not a tool id: write <pack>/<tool>, such as stats/read',
    );
  });

  it("refuses inputs without a prompt", () => {
    expect(() => scenarioCaseOf({})).toThrow(
      new ScenarioFormatError("runScenario", [
        { file: "runScenario", keyPath: "", message: 'missing required key "prompt"' },
      ]),
    );
  });
});
