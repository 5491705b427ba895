import { createHost, type PreparedRun, type PromptRequirements } from "@runvil/host";
import { subagentsPack } from "@runvil/plugin-subagents";
import { userInputPack } from "@runvil/plugin-user-input";
import { createWebPack } from "@runvil/plugin-web";
import {
  definePlugin,
  INPUT_BROKER,
  type InputBroker,
  type InputRequest,
  type JsonValue,
  type ModelProvider,
  type PackDefinition,
  SEARCH_PROVIDER,
  type SearchProvider,
  type SearchRequest,
  type ToolDefinition,
  ToolFailure,
} from "@runvil/sdk";

/** A fixture tool of a scenario's Host (conformance FORMAT.md, `host.fixture_tools`). */
export interface FixtureTool {
  readonly id: string;
  readonly description: string;
  readonly parameters: JsonValue;
  readonly structured?: boolean;
  /** Default true. */
  readonly trusted?: boolean;
  /** True: a third-party Pack, in the run only when declared as `{vendor}/{pack}`. */
  readonly declared?: boolean;
  /** The vendor of a declared fixture Pack (default `fixture`). */
  readonly vendor?: string;
  readonly returns?: string;
  readonly fails?: string;
}

/** A scenario's Host (FORMAT.md `host`): official Packs, services, unavailable Packs, fixtures. */
export interface ScenarioHost {
  /** Official Packs served; default web, user-input, subagents. */
  readonly packs?: readonly OfficialPackId[];
  /** Services provided; default input-broker and search-provider. */
  readonly services?: readonly string[];
  /** Pack id → the reason its Pack cannot serve (its `start()` throws it). */
  readonly unavailable?: Readonly<Record<string, string>>;
  readonly fixture_tools?: readonly FixtureTool[];
}

/** The official Packs a scenario Host can serve. */
export type OfficialPackId = "web" | "user-input" | "subagents";

/** One scripted operator answer (FORMAT.md `operator`). */
export type OperatorAnswer = string | { readonly fail: string } | { readonly hold: true };

/** The scripted web (FORMAT.md `web`): page text by url, results text by query. */
export interface ScenarioWeb {
  readonly pages?: Readonly<Record<string, string>>;
  readonly search?: Readonly<Record<string, string>>;
}

/** Everything a scenario run is prepared with: the Host and the scripted parties behind it. */
export interface ScenarioSetup {
  readonly host?: ScenarioHost;
  readonly operator?: readonly OperatorAnswer[];
  readonly web?: ScenarioWeb;
}

/**
 * Prepares `prompt` (its `uses:`) with the real Host: `createHost` with the official Packs of
 * `setup.host.packs` from plugins/ (web reading the scripted pages), the fixture Packs, the
 * `unavailable` Packs failing their start, and the services of `setup.host.services` (the
 * scripted operator, the scripted search), then the Host's own `prepare`. Throws the
 * requirements notice of a refused prepare (a test that needs one asks the Host itself).
 */
export async function prepareScenario(
  prompt: PromptRequirements,
  setup: ScenarioSetup = {},
): Promise<PreparedRun> {
  const host = setup.host ?? {};
  const services = new Set(host.services ?? ["input-broker", "search-provider"]);
  const packs = scenarioPacks(host, setup.web ?? {});
  const created = await createHost({
    plugins: [
      {
        plugin: definePlugin({
          name: "engine-scenario",
          setup(api) {
            for (const pack of packs) api.addPack(pack);
            api.addModelProvider(SCRIPTED_MODELS);
          },
        }),
      },
    ],
    services: {
      ...(services.has("input-broker")
        ? { [INPUT_BROKER]: scriptedOperator(setup.operator ?? []) }
        : {}),
      ...(services.has("search-provider")
        ? { [SEARCH_PROVIDER]: scriptedSearch(setup.web?.search ?? {}) }
        : {}),
    },
  });
  // FORMAT.md: every declared role is bound to "scripted-model".
  const models = Object.fromEntries(
    prompt.frontmatter.models.map((role) => [role.label, SCRIPTED_MODEL]),
  );
  const prepared = created.prepare(prompt, { models });
  if (!prepared.ok) throw new Error(prepared.notice);
  return prepared.run;
}

/** The catalog id every role of a scenario is bound to (FORMAT.md `models.bind` default). */
export const SCRIPTED_MODEL = "scripted-model";

/**
 * The scenario's model provider: it serves `scripted-model` with the scripted provider's facts
 * (docs/design/models.md §10) so roles bind; it scripts no replies, so a round rejects.
 */
const SCRIPTED_MODELS: ModelProvider = {
  specificationVersion: 1,
  name: "scripted",
  models: [{ id: SCRIPTED_MODEL, contextWindow: 200_000, maxOutputTokens: 32_000, tools: true }],
  round: () => Promise.reject(new Error("the engine's scenario Host scripts no model replies")),
};

/** The Packs of a scenario Host: the official ones, the fixtures, the unavailable ones. */
function scenarioPacks(host: ScenarioHost, web: ScenarioWeb): PackDefinition[] {
  const packs = new Map<string, PackDefinition>();
  for (const id of host.packs ?? ["web", "user-input", "subagents"]) {
    const pack = officialPack(id, web);
    packs.set(`${pack.vendor}/${pack.name}`, pack);
  }
  for (const fixture of host.fixture_tools ?? []) {
    const vendor = fixture.declared === true ? (fixture.vendor ?? "fixture") : "runvil";
    const name = fixture.id.split("/")[0] ?? "";
    const key = `${vendor}/${name}`;
    const pack = packs.get(key) ?? emptyPack(vendor, name);
    packs.set(key, { ...pack, tools: [...pack.tools, fixtureTool(fixture)] });
  }
  for (const [id, reason] of Object.entries(host.unavailable ?? {})) {
    const key = `runvil/${id}`;
    const pack = packs.get(key) ?? emptyPack("runvil", id);
    packs.set(key, {
      ...pack,
      start: () => {
        throw new Error(reason);
      },
    });
  }
  return [...packs.values()];
}

function officialPack(id: OfficialPackId, web: ScenarioWeb): PackDefinition {
  switch (id) {
    case "web":
      return createWebPack({ fetchPage: scriptedPages(web.pages ?? {}) });
    case "user-input":
      return userInputPack;
    case "subagents":
      return subagentsPack;
  }
}

function emptyPack(vendor: string, name: string): PackDefinition {
  return { vendor, name, description: `The scenario's fixture Pack ${name}.`, tools: [] };
}

/** A fixture tool: `returns` answers every call with its text, `fails` throws a ToolFailure. */
function fixtureTool(fixture: FixtureTool): ToolDefinition {
  return {
    id: fixture.id,
    description: fixture.description,
    parameters: fixture.parameters,
    output: fixture.structured === true ? "structured" : "plain",
    trust: fixture.trusted === false ? "untrusted" : "trusted",
    run: () => {
      if (fixture.fails !== undefined) throw new ToolFailure(fixture.fails);
      return fixture.returns ?? "";
    },
  };
}

/** web/fetch's pages: a url's text, or `web_fetch: no page at {url}` (FORMAT.md `web`). */
function scriptedPages(
  pages: Readonly<Record<string, string>>,
): (url: string, signal: AbortSignal) => Promise<string> {
  return async (url) => {
    const page = pages[url];
    if (page === undefined) throw new ToolFailure(`web_fetch: no page at ${url}`);
    return page;
  };
}

/** The search provider: a query's results text, or `web_search: no results for {query}`. */
function scriptedSearch(results: Readonly<Record<string, string>>): SearchProvider {
  return {
    search: async ({ query }: SearchRequest) => {
      const text = results[query];
      if (text === undefined) throw new ToolFailure(`web_search: no results for ${query}`);
      return text;
    },
  };
}

/**
 * The operator: each ask takes the next answer; `fail` rejects with its text (the ask tool
 * reports it), `hold` waits until the call's signal aborts, and an ask with no answer left
 * rejects with `the scenario has no operator answer left`.
 */
function scriptedOperator(answers: readonly OperatorAnswer[]): InputBroker {
  const queue = [...answers];
  return {
    ask: ({ signal }: InputRequest) => {
      const next = queue.shift();
      if (next === undefined) {
        return Promise.reject(new Error("the scenario has no operator answer left"));
      }
      if (typeof next === "string") return Promise.resolve(next);
      if ("fail" in next) return Promise.reject(new Error(next.fail));
      return new Promise<string>((_, reject) => {
        signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
    },
  };
}
