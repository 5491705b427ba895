import type { Prompt } from "@runvil/parser";
import type { RunCatalog } from "@runvil/protocol";
import { INPUT_BROKER, SEARCH_PROVIDER } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost, type Host } from "../host";
import type { PluginEntry } from "../host-options";
import {
  packPlugin,
  providerPlugin,
  rolesPrompt,
  testPack,
  testProvider,
  testRole,
  testTool,
  usesPrompt,
} from "../test-support";
import type { PromptRequirements } from "./prepare-run";
import type { PreparedRun } from "./prepared-run";

const WEB = testPack("runvil/web", ["web/fetch", "web/search"], { services: [SEARCH_PROVIDER] });
const USER_INPUT = testPack("runvil/user-input", ["user-input/ask"], {
  services: [INPUT_BROKER],
  prelude: "local pack = ...\ninput = {}",
});
const SUBAGENTS = testPack("runvil/subagents");
const OFFICIAL = [WEB, USER_INPUT, SUBAGENTS];
const ALL_SERVICES = { [SEARCH_PROVIDER]: { search: async () => "" }, [INPUT_BROKER]: {} };

async function hostWith(
  packs: Parameters<typeof packPlugin>[1],
  services: Readonly<Record<string, unknown>> = ALL_SERVICES,
  extra: readonly PluginEntry[] = [],
): Promise<Host> {
  return createHost({ plugins: [{ plugin: packPlugin("test", packs) }, ...extra], services });
}

function notice(host: Host, ...uses: string[]): string {
  const result = host.prepare(usesPrompt(...uses));
  if (result.ok) throw new Error("expected a requirements notice");
  return result.notice;
}

function prepared(host: Host, ...uses: string[]): PreparedRun {
  const result = host.prepare(usesPrompt(...uses));
  if (!result.ok) throw new Error(`expected a prepared run, got:\n${result.notice}`);
  return result.run;
}

function toolIds(catalog: RunCatalog): string[] {
  return catalog.tools.map((tool) => tool.id);
}

describe("Host.prepare: the requirements notice", () => {
  it("names a declared Pack no vendor has as a missing required Pack", async () => {
    const host = await hostWith([USER_INPUT, SUBAGENTS]);
    expect(notice(host, "web")).toBe(
      "the environment cannot satisfy this prompt:\n- missing required Pack: web",
    );
    expect(notice(host, "runvil/web")).toBe(
      "the environment cannot satisfy this prompt:\n- missing required Pack: web",
    );
  });

  it("names the entry to write for a bare id the Host has only from other vendors", async () => {
    const host = await hostWith([testPack("acme/poop", ["poop/flush"])]);
    expect(notice(host, "poop")).toBe(
      "the environment cannot satisfy this prompt:\n- poop is unavailable: poop means runvil/poop, which is not installed; write acme/poop to use that Pack",
    );
    const several = await hostWith([testPack("zeta/poop"), testPack("acme/poop")]);
    expect(notice(several, "poop")).toBe(
      "the environment cannot satisfy this prompt:\n- poop is unavailable: poop means runvil/poop, which is not installed; write acme/poop or zeta/poop to use one of those Packs",
    );
  });

  it("says a vendor/name entry the Host lacks is not installed", async () => {
    const host = await hostWith(OFFICIAL);
    expect(notice(host, "acme/poop")).toBe(
      "the environment cannot satisfy this prompt:\n- poop is unavailable: acme/poop is not installed",
    );
    expect(notice(host, "acme/web")).toBe(
      "the environment cannot satisfy this prompt:\n- web is unavailable: acme/web is not installed",
    );
  });

  it("reads a tool id under uses: as a Pack of another vendor", async () => {
    const host = await hostWith(OFFICIAL);
    expect(notice(host, "web/fetch")).toBe(
      "the environment cannot satisfy this prompt:\n- fetch is unavailable: web/fetch is not installed",
    );
  });

  it("gives a declared Pack that failed to start with its reason", async () => {
    const broken = testPack("runvil/web", ["web/fetch"], {
      start: () => {
        throw new Error("the web Pack failed to start");
      },
      services: [SEARCH_PROVIDER],
    });
    const host = await hostWith([broken], {});
    expect(notice(host, "web")).toBe(
      "the environment cannot satisfy this prompt:\n- web is unavailable: the web Pack failed to start",
    );
  });

  it("names each service a declared Pack needs and the run lacks", async () => {
    const host = await hostWith(OFFICIAL, { [SEARCH_PROVIDER]: {} });
    expect(notice(host, "user-input")).toBe(
      "the environment cannot satisfy this prompt:\n- user-input needs runvil/input-broker, and the environment provides none",
    );
    const needy = await hostWith([
      testPack("acme/kit", [], { services: ["acme/a", "acme/b", "acme/a"] }),
    ]);
    expect(notice(needy, "acme/kit")).toBe(
      "the environment cannot satisfy this prompt:\n- kit needs acme/a, and the environment provides none\n- kit needs acme/b, and the environment provides none",
    );
  });

  it("lists every problem at once, in uses: order", async () => {
    const broken = testPack("runvil/web", [], {
      start: () => {
        throw new Error("the web Pack failed to build");
      },
    });
    const host = await hostWith([broken, USER_INPUT, testPack("acme/poop")], {});
    expect(notice(host, "user-input", "acme/kit", "web", "poop", "missing", "web/fetch")).toBe(
      [
        "the environment cannot satisfy this prompt:",
        "- user-input needs runvil/input-broker, and the environment provides none",
        "- kit is unavailable: acme/kit is not installed",
        "- web is unavailable: the web Pack failed to build",
        "- poop is unavailable: poop means runvil/poop, which is not installed; write acme/poop to use that Pack",
        "- missing required Pack: missing",
        "- fetch is unavailable: web/fetch is not installed",
      ].join("\n"),
    );
  });

  it("lets a run's own services satisfy a Pack, or take a Host service away", async () => {
    const host = await hostWith(OFFICIAL, { [SEARCH_PROVIDER]: {} });
    const broker = { ask: async () => "hi" };
    const result = host.prepare(usesPrompt("user-input"), { services: { [INPUT_BROKER]: broker } });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.run.services.get(INPUT_BROKER)).toBe(broker);
    const without = host.prepare(usesPrompt("web"), { services: { [SEARCH_PROVIDER]: undefined } });
    expect(without).toEqual({
      ok: false,
      notice:
        "the environment cannot satisfy this prompt:\n- web needs runvil/search-provider, and the environment provides none",
    });
    expect(host.prepare(usesPrompt("web")).ok).toBe(true);
  });
});

describe("Host.prepare: the run's Packs and catalog", () => {
  it("holds every runvil Pack the Host can serve, declared or not, in tool id order", async () => {
    const host = await hostWith([SUBAGENTS, USER_INPUT, WEB]);
    const run = prepared(host);
    expect(toolIds(run.catalog)).toEqual(["user-input/ask", "web/fetch", "web/search"]);
    expect([...run.tools.keys()]).toEqual(["user-input/ask", "web/fetch", "web/search"]);
    expect(run.tools.get("web/fetch")).toBe(WEB.tools[0]);
    expect(run.catalog.packs).toEqual([
      { id: "subagents", fullName: "runvil/subagents", declared: false, unavailable: null },
      { id: "user-input", fullName: "runvil/user-input", declared: false, unavailable: null },
      { id: "web", fullName: "runvil/web", declared: false, unavailable: null },
    ]);
    expect(run.catalog.preludes).toEqual([]);
    expect(run.catalog.dropped).toEqual([]);
    expect(run.catalog.tools[1]).toEqual({
      id: "web/fetch",
      pack: "web",
      wireName: "web_fetch",
      description: "The web/fetch tool.",
      parameters: { type: "object", properties: {} },
      structured: false,
    });
  });

  it("marks declared Packs and neither adds nor removes tools for a declared runvil Pack", async () => {
    const host = await hostWith(OFFICIAL);
    const bare = prepared(host);
    const declared = prepared(host, "web", "user-input");
    expect(toolIds(declared.catalog)).toEqual(toolIds(bare.catalog));
    expect(declared.catalog.packs?.map((pack) => [pack.id, pack.declared])).toEqual([
      ["subagents", false],
      ["user-input", true],
      ["web", true],
    ]);
  });

  it("leaves out an undeclared third-party Pack and takes it in once declared", async () => {
    const host = await hostWith([...OFFICIAL, testPack("acme/notes", ["notes/read"])]);
    expect(toolIds(prepared(host).catalog)).not.toContain("notes/read");
    expect(prepared(host).catalog.packs?.map((pack) => pack.fullName)).not.toContain("acme/notes");
    const run = prepared(host, "acme/notes");
    expect(toolIds(run.catalog)).toContain("notes/read");
    expect(run.catalog.packs).toContainEqual({
      id: "notes",
      fullName: "acme/notes",
      declared: true,
      unavailable: null,
    });
  });

  it("replaces the runvil Pack of an id with the declared third-party Pack", async () => {
    const acmeFetch = testTool("web/fetch", { description: "Fetches a page the acme way." });
    const host = await hostWith([...OFFICIAL, testPack("acme/web", [acmeFetch])]);
    const run = prepared(host, "acme/web");
    expect(toolIds(run.catalog)).toEqual(["user-input/ask", "web/fetch"]);
    expect(run.tools.get("web/fetch")).toBe(acmeFetch);
    expect(run.catalog.packs?.map((pack) => pack.fullName)).toEqual([
      "runvil/subagents",
      "runvil/user-input",
      "acme/web",
    ]);
  });

  it("leaves out the tools of an undeclared Pack that cannot serve, with its reason", async () => {
    const failing = testPack("runvil/kit", ["kit/a"], {
      start: () => {
        throw new Error("kit storage is read-only");
      },
    });
    const host = await hostWith([...OFFICIAL, failing], { [INPUT_BROKER]: {} });
    const run = prepared(host);
    expect(toolIds(run.catalog)).toEqual(["user-input/ask"]);
    expect(run.catalog.packs).toEqual([
      {
        id: "kit",
        fullName: "runvil/kit",
        declared: false,
        unavailable: "kit storage is read-only",
      },
      { id: "subagents", fullName: "runvil/subagents", declared: false, unavailable: null },
      { id: "user-input", fullName: "runvil/user-input", declared: false, unavailable: null },
      {
        id: "web",
        fullName: "runvil/web",
        declared: false,
        unavailable: "web needs runvil/search-provider, and this host provides none",
      },
    ]);
    expect(run.packs.find((pack) => pack.id === "web")).toEqual({
      id: "web",
      fullName: "runvil/web",
      declared: false,
      unavailable: "web needs runvil/search-provider, and this host provides none",
      description: "The runvil/web Pack.",
      plugin: "test",
      tools: [],
    });
  });

  it("hands out the declared Packs' preludes in uses: order", async () => {
    const kit = testPack("acme/kit", [], { prelude: "answer = 42" });
    const quiet = testPack("acme/quiet");
    const host = await hostWith([
      ...OFFICIAL,
      kit,
      quiet,
      testPack("runvil/extra", [], { prelude: "x = 1" }),
    ]);
    expect(prepared(host, "acme/kit", "acme/quiet", "user-input").catalog.preludes).toEqual([
      { pack: "kit", source: "answer = 42" },
      { pack: "user-input", source: "local pack = ...\ninput = {}" },
    ]);
  });

  it("reports the dropped tools of the run's Packs only", async () => {
    const host = await hostWith([
      ...OFFICIAL,
      testPack("runvil/kit", ["kit/a", "other/b"]),
      testPack("acme/notes", ["notes/read", "nope/x"]),
    ]);
    expect(prepared(host).catalog.dropped).toEqual([
      { tool: "other/b", pack: "kit", reason: "a Pack's tool id escapes its Pack id; dropped" },
    ]);
    expect(prepared(host, "acme/notes").catalog.dropped).toEqual([
      { tool: "other/b", pack: "kit", reason: "a Pack's tool id escapes its Pack id; dropped" },
      { tool: "nope/x", pack: "notes", reason: "a Pack's tool id escapes its Pack id; dropped" },
    ]);
    expect(toolIds(prepared(host).catalog)).toContain("kit/a");
  });

  it("leaves tools out of the offering but keeps them in the catalog", async () => {
    const host = await hostWith([
      testPack("runvil/task", ["task/status", "task/cancel", "task/list"]),
      testPack("runvil/stats", ["stats/read", testTool("stats/bad", { parameters: "scalar" })]),
      testPack("runvil/a.b", ["a.b/c"]),
      testPack("runvil/a", ["a/b.c", "a/b/c"]),
    ]);
    const run = prepared(host);
    expect(run.catalog.tools.map((tool) => [tool.id, tool.wireName])).toEqual([
      ["a.b/c", "a_b_c"],
      ["a/b.c", null],
      ["a/b/c", null],
      ["stats/bad", null],
      ["stats/read", "stats_read"],
      ["task/cancel", null],
      ["task/list", "task_list"],
      ["task/status", null],
    ]);
    expect(run.tools.size).toBe(8);
  });

  it("accepts a parsed Prompt", () => {
    const fromPrompt = (prompt: Prompt): PromptRequirements => prompt;
    expect(typeof fromPrompt).toBe("function");
  });
});

describe("Host.prepare: model roles", () => {
  const ANTHROPIC = testProvider("anthropic", ["claude-sonnet-4-6"]);
  const OPENAI = testProvider("openai", ["gpt-4.1", "gpt-4.1-mini"]);

  function modelHost(defaultModel?: string): Promise<Host> {
    return createHost({
      plugins: [
        { plugin: packPlugin("test", [SUBAGENTS]) },
        { plugin: providerPlugin("models", ANTHROPIC, OPENAI) },
      ],
      services: ALL_SERVICES,
      ...(defaultModel === undefined ? {} : { defaultModel }),
    });
  }

  it("binds every role and hands the Harness each bound model's provider", async () => {
    const host = await modelHost("gpt-4.1");
    const result = host.prepare(
      rolesPrompt([testRole("writer", { model: ["claude-sonnet-4-6"] }), testRole("critic")]),
    );
    if (!result.ok) throw new Error(result.notice);
    expect(
      result.run.models.map(({ label, model, provider, from }) => [label, model, provider, from]),
    ).toEqual([
      ["writer", "claude-sonnet-4-6", "anthropic", "model"],
      ["critic", "gpt-4.1", "openai", "default"],
    ]);
    expect([...result.run.modelProviders]).toEqual([
      ["claude-sonnet-4-6", ANTHROPIC],
      ["gpt-4.1", OPENAI],
    ]);
    expect(result.run.catalog.models).toEqual([
      {
        label: "writer",
        model: "claude-sonnet-4-6",
        contextWindow: 200_000,
        maxOutputTokens: 32_000,
        tools: true,
        settings: {},
        maxRounds: 20,
      },
      {
        label: "critic",
        model: "gpt-4.1",
        contextWindow: 200_000,
        maxOutputTokens: 32_000,
        tools: true,
        settings: {},
        maxRounds: 20,
      },
    ]);
  });

  it("binds by the run's overrides, per prepare", async () => {
    const host = await modelHost();
    const roles = rolesPrompt([testRole("writer", { model: ["claude-sonnet-4-6"] })]);
    const overridden = host.prepare(roles, { models: { writer: "gpt-4.1-mini" } });
    expect(overridden.ok && overridden.run.models[0]?.model).toBe("gpt-4.1-mini");
    const plain = host.prepare(roles);
    expect(plain.ok && plain.run.models[0]?.model).toBe("claude-sonnet-4-6");
  });

  it("puts the Host's budget on every run's catalog, and none when it has none", async () => {
    const budget = { run: { maxTokens: 1000 }, section: { maxCostUsd: 0.25 } };
    const host = await createHost({ plugins: [{ plugin: packPlugin("test", OFFICIAL) }], budget });
    expect(host.budget).toEqual(budget);
    expect(prepared(host).catalog.budget).toEqual(budget);
    expect("budget" in prepared(await hostWith(OFFICIAL)).catalog).toBe(false);
  });

  it("gives a prompt without roles no bindings, even on a Host without models", async () => {
    const run = prepared(await hostWith(OFFICIAL));
    expect(run.models).toEqual([]);
    expect(run.modelProviders.size).toBe(0);
  });

  it("refuses the run with one line per role that cannot bind, after the Pack lines", async () => {
    const host = await modelHost();
    const result = host.prepare(
      rolesPrompt(
        [
          testRole("writer"),
          testRole("critic", { model: ["gpt-5"] }),
          testRole("ok", { model: ["o3", "gpt-4.1"] }),
        ],
        "web",
      ),
    );
    expect(!result.ok && result.notice).toBe(
      [
        "the environment cannot satisfy this prompt:",
        "- missing required Pack: web",
        "- model role writer cannot be bound: it names no model, and this host has no default model; set model: under models.writer",
        "- model role critic cannot be bound: `gpt-5` is not in this host's model catalog",
      ].join("\n"),
    );
  });

  it("refuses a role on a Host with no model provider, saying so", async () => {
    const host = await hostWith(OFFICIAL);
    const result = host.prepare(rolesPrompt([testRole("writer")]));
    expect(!result.ok && result.notice).toBe(
      [
        "the environment cannot satisfy this prompt:",
        "- model role writer cannot be bound: it names no model, and this host has no default model; set model: under models.writer; this host has no model provider",
      ].join("\n"),
    );
  });
});
