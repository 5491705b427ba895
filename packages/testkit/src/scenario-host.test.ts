import { MemoryStore } from "@runvil/harness";
import { type PreparedRun, type PromptRequirements, toolDispatcherFor } from "@runvil/host";
import type { ToolCallRequest } from "@runvil/protocol";
import {
  definePack,
  definePlugin,
  INPUT_BROKER,
  type JsonObject,
  SEARCH_PROVIDER,
  ToolFailure,
} from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "./load-scenarios";
import { createScenarioHost, type ScenarioHostSetup } from "./scenario-host";
import type { ScenarioCase } from "./scenario-types";
import { HELD_WAIT_ENDED } from "./scripted-input-broker";

/** A case from the YAML of its keys besides name, prompt and expect. */
function scenarioCase(keys = ""): ScenarioCase {
  const text = `cases:\n  - name: c\n    prompt: "x"\n    expect: { outcome: succeeded }\n${keys
    .split("\n")
    .map((line) => (line === "" ? line : `    ${line}`))
    .join("\n")}`;
  const found = loadScenarioFile({ text, path: "c.yaml" }).cases[0];
  if (found === undefined) throw new Error("no case");
  return found;
}

/** What prepare reads of a prompt, from its uses: entries. */
function uses(...entries: string[]): PromptRequirements {
  return {
    frontmatter: {
      uses: entries.map((text) => {
        const [first = "", second] = text.split("/");
        const vendor = second === undefined ? "runvil" : first;
        const packId = second ?? first;
        return { text, vendor, packId, fullName: `${vendor}/${packId}` };
      }),
      models: [],
    },
  };
}

function prepared(setup: ScenarioHostSetup, prompt = uses()): PreparedRun {
  const result = setup.host.prepare(prompt);
  if (!result.ok) throw new Error(result.notice);
  return result.run;
}

function notice(setup: ScenarioHostSetup, prompt: PromptRequirements): string {
  const result = setup.host.prepare(prompt);
  if (result.ok) throw new Error("prepare did not refuse");
  return result.notice;
}

/** Calls a catalog tool of the run the way the Engine does. */
function call(
  run: PreparedRun,
  tool: string,
  args: JsonObject = {},
  signal = new AbortController().signal,
) {
  const request: ToolCallRequest = {
    tool,
    name: tool.replace(/\//g, "_"),
    arguments: args,
    caller: "script",
    callId: "",
    origin: { execution: "run-1", chain: "0", entry: "0.1", section: "Main", task: "0" },
    effect: "0.1/1",
    signal,
  };
  return toolDispatcherFor(run, { store: new MemoryStore() }).call(request);
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolFailure.isInstance(error))
    throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error.message;
}

describe("createScenarioHost", () => {
  it("serves the official Packs and both services by default", async () => {
    const setup = await createScenarioHost(scenarioCase());
    expect(setup.host.packs.map((pack) => pack.fullName)).toEqual([
      "runvil/web",
      "runvil/user-input",
      "runvil/subagents",
    ]);
    expect(setup.host.modelProviders).toEqual([setup.models]);
    const run = prepared(setup);
    expect(run.catalog.tools.map((tool) => `${tool.id}:${tool.wireName}`)).toEqual([
      "user-input/ask:user-input_ask",
      "web/fetch:web_fetch",
      "web/search:web_search",
    ]);
    expect(run.services.get(INPUT_BROKER)).toBe(setup.broker);
    expect(run.services.get(SEARCH_PROVIDER)).toBe(setup.search);
  });

  it("answers web/fetch and web/search from the case's web, untrusted", async () => {
    const setup = await createScenarioHost(
      scenarioCase(
        'web:\n  pages: { "https://www.lua.org/": "Lua: the programming language" }\n  search: { "latest Lua release": "1. Lua 5.5.0 released" }\n',
      ),
    );
    const run = prepared(setup, uses("web"));
    expect(await call(run, "web/fetch", { url: "https://www.lua.org/" })).toEqual({
      text: "Lua: the programming language",
      trusted: false,
    });
    expect(await failure(call(run, "web/fetch", { url: "https://lua.org/" }))).toBe(
      "web_fetch: no page at https://lua.org/",
    );
    expect(await failure(call(run, "web/fetch"))).toBe("web_fetch: missing url argument");
    expect(await call(run, "web/search", { query: "latest Lua release" })).toEqual({
      text: "1. Lua 5.5.0 released",
      trusted: false,
    });
    expect(await failure(call(run, "web/search", { query: "lua" }))).toBe(
      'web_search: no results for "lua"',
    );
    expect(setup.search.queries).toEqual(["latest Lua release", "lua"]);
  });

  it("answers user-input/ask from the operator list, trusted, and runs out", async () => {
    const setup = await createScenarioHost(
      scenarioCase('operator:\n  - hi\n  - fail: "the operator\'s window closed"\n'),
    );
    const run = prepared(setup, uses("user-input"));
    expect(await call(run, "user-input/ask")).toEqual({ text: "hi", trusted: true });
    expect(await failure(call(run, "user-input/ask"))).toBe("the operator's window closed");
    expect(await failure(call(run, "user-input/ask"))).toBe(
      "the scenario scripts no operator answer for ask 3",
    );
    expect(setup.broker.ranOut).toBe("the scenario scripts no operator answer for ask 3");
  });

  it("holds an ask until the call's signal aborts", async () => {
    const setup = await createScenarioHost(scenarioCase("operator: [ { hold: true } ]\n"));
    const run = prepared(setup, uses("user-input"));
    const controller = new AbortController();
    const wait = call(run, "user-input/ask", {}, controller.signal).then(
      () => "answered",
      () => "rejected",
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await wait).toBe("rejected");
    expect(setup.broker.ranOut).toBeUndefined();
    expect(HELD_WAIT_ENDED).toBe("the wait for the operator ended before an answer");
  });

  it("runs fixture tools: structured text verbatim, untrusted, failing", async () => {
    const setup = await createScenarioHost(
      scenarioCase(`host:
  fixture_tools:
    - { id: stats/read, structured: true, returns: '{"text":"typed","images":[]}' }
    - { id: stats/raw, structured: true, trusted: false, returns: 'not json' }
    - { id: stats/broken, fails: "stats are offline" }
    - { id: stats/bad, parameters: "scalar", returns: "bad" }
`),
    );
    const run = prepared(setup);
    expect(
      run.catalog.tools
        .filter((tool) => tool.pack === "stats")
        .map((tool) => [tool.id, tool.wireName, tool.structured]),
    ).toEqual([
      ["stats/bad", null, false],
      ["stats/broken", "stats_broken", false],
      ["stats/raw", "stats_raw", true],
      ["stats/read", "stats_read", true],
    ]);
    expect(await call(run, "stats/read")).toEqual({
      text: '{"text":"typed","images":[]}',
      trusted: true,
    });
    expect(await call(run, "stats/raw")).toEqual({ text: "not json", trusted: false });
    expect(await failure(call(run, "stats/broken"))).toBe("stats are offline");
  });

  it("keeps a task-named fixture tool in the catalog but out of the offering", async () => {
    const setup = await createScenarioHost(
      scenarioCase(
        'host:\n  fixture_tools:\n    - { id: task/status, returns: "fixture status" }\n',
      ),
    );
    const run = prepared(setup);
    const status = run.catalog.tools.find((tool) => tool.id === "task/status");
    expect(status?.wireName).toBeNull();
    expect(await call(run, "task/status")).toEqual({ text: "fixture status", trusted: true });
  });

  it("refuses a declared Pack the case does not serve", async () => {
    const setup = await createScenarioHost(
      scenarioCase("host: { packs: [user-input, subagents] }\n"),
    );
    expect(notice(setup, uses("web"))).toBe(
      "the environment cannot satisfy this prompt:\n- missing required Pack: web",
    );
  });

  it("serves a declared third-party fixture Pack only when declared, replacing the runvil Pack", async () => {
    const setup = await createScenarioHost(
      scenarioCase(`host:
  fixture_tools:
    - { id: web/fetch, declared: true, vendor: acme, returns: "acme page",
        parameters: { type: object, properties: { url: { type: string } }, required: [url] } }
    - { id: poop/flush, declared: true, vendor: acme, returns: "flushed" }
`),
    );
    const undeclared = prepared(setup);
    expect(undeclared.catalog.tools.map((tool) => tool.id)).toEqual([
      "user-input/ask",
      "web/fetch",
      "web/search",
    ]);
    expect(await failure(call(undeclared, "web/fetch", { url: "x" }))).toBe(
      "web_fetch: no page at x",
    );
    const acme = prepared(setup, uses("acme/web", "acme/poop"));
    expect(acme.catalog.tools.map((tool) => tool.id)).toEqual([
      "poop/flush",
      "user-input/ask",
      "web/fetch",
    ]);
    expect(await call(acme, "web/fetch", { url: "https://www.lua.org/" })).toEqual({
      text: "acme page",
      trusted: true,
    });
    expect(notice(setup, uses("poop"))).toBe(
      "the environment cannot satisfy this prompt:\n- poop is unavailable: poop means runvil/poop, which is not installed; write acme/poop to use that Pack",
    );
  });

  it("reports unavailable Packs with the case's reasons", async () => {
    const setup = await createScenarioHost(
      scenarioCase(`host:
  unavailable:
    web: "the web Pack failed to build"
    user-input: "the user-input Pack failed to start"
`),
    );
    expect(notice(setup, uses("web", "user-input"))).toBe(
      "the environment cannot satisfy this prompt:\n- web is unavailable: the web Pack failed to build\n- user-input is unavailable: the user-input Pack failed to start",
    );
    const run = prepared(setup);
    expect(run.catalog.packs?.filter((pack) => pack.unavailable !== null)).toEqual([
      {
        id: "user-input",
        fullName: "runvil/user-input",
        declared: false,
        unavailable: "the user-input Pack failed to start",
      },
      {
        id: "web",
        fullName: "runvil/web",
        declared: false,
        unavailable: "the web Pack failed to build",
      },
    ]);
    expect(run.catalog.tools.map((tool) => tool.id)).toEqual([]);
  });

  it("leaves a service out when host.services does", async () => {
    const setup = await createScenarioHost(scenarioCase("host: { services: [input-broker] }\n"));
    expect(notice(setup, uses("web"))).toBe(
      "the environment cannot satisfy this prompt:\n- web needs runvil/search-provider, and the environment provides none",
    );
    const run = prepared(setup);
    expect(run.catalog.packs?.find((pack) => pack.id === "web")?.unavailable).toBe(
      "web needs runvil/search-provider, and this host provides none",
    );
  });

  it("adds a fixture prelude's Pack to the declared preludes", async () => {
    const setup = await createScenarioHost(
      scenarioCase("host:\n  fixture_preludes:\n    helper: |\n      helper = {}\n"),
    );
    expect(prepared(setup, uses("user-input", "helper")).catalog.preludes).toEqual([
      { pack: "user-input", source: expect.stringContaining("input = {}") },
      { pack: "helper", source: "helper = {}\n" },
    ]);
  });

  it("adds the user's plugins, keeping the case in charge of the official Packs", async () => {
    const notes = definePack({
      vendor: "acme",
      name: "notes",
      description: "Notes.",
      tools: [
        {
          id: "notes/count",
          description: "Counts notes.",
          parameters: { type: "object", properties: {} },
          trust: "trusted",
          run: async (_args, ctx) => String((await ctx.store.list()).length),
        },
      ],
    });
    const plugin = definePlugin({
      name: "acme-notes",
      setup(api) {
        api.addPack(notes);
        api.addPack(definePack({ vendor: "runvil", name: "web", description: "x", tools: [] }));
        api.provideService(SEARCH_PROVIDER, {});
      },
    });
    const setup = await createScenarioHost(scenarioCase("host: { services: [] }\n"), [{ plugin }]);
    expect(setup.host.packs.map((pack) => `${pack.fullName} (${pack.plugin})`)).toEqual([
      "runvil/web (@runvil/testkit scenario)",
      "runvil/user-input (@runvil/testkit scenario)",
      "runvil/subagents (@runvil/testkit scenario)",
      "acme/notes (acme-notes)",
    ]);
    expect(setup.host.services.has(SEARCH_PROVIDER)).toBe(false);
    const run = prepared(setup, uses("acme/notes"));
    expect(await call(run, "notes/count")).toEqual({ text: "0", trusted: true });
  });
});
