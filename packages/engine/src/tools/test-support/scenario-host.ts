import { toWireName } from "@runvil/names";
import type { UsesDeclaration } from "@runvil/parser";
import type { JsonValue } from "@runvil/sdk";
import { isTaskBuiltinName } from "../reserved-names";
import type { CatalogTool, RunCatalog, RunPack } from "../run-catalog";
import { packOfTool } from "../run-tools";

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
  readonly packs?: readonly string[];
  /** Services provided; default input-broker and search-provider. */
  readonly services?: readonly string[];
  readonly unavailable?: Readonly<Record<string, string>>;
  readonly fixture_tools?: readonly FixtureTool[];
}

/** How an official tool behaves in a scenario. */
export interface OfficialTool {
  readonly id: string;
  readonly description: string;
  readonly parameters: JsonValue;
  readonly trusted: boolean;
}

/** The official tools the scenarios use, as data (tools chapter; GAPS.md G1). */
export const OFFICIAL_TOOLS: readonly OfficialTool[] = [
  {
    id: "user-input/ask",
    description: "Wait for the operator's next message and return its text.",
    parameters: { type: "object", properties: {} },
    trusted: true,
  },
  {
    id: "web/fetch",
    description: "Fetch a web page and return its readable text.",
    parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    trusted: false,
  },
  {
    id: "web/search",
    description: "Search the web and return a list of results (title, url, description).",
    parameters: {
      type: "object",
      properties: { query: { type: "string" } },
      required: ["query"],
    },
    trusted: false,
  },
];

/** The service each official Pack needs, with its id as the unavailable reason names it. */
const NEEDS: Readonly<Record<string, readonly [string, string]>> = {
  web: ["search-provider", "runvil/search-provider"],
  "user-input": ["input-broker", "runvil/input-broker"],
};

/** What a scenario run needs from its Host: the catalog, and each tool's trust and fixture. */
export interface ScenarioCatalog {
  readonly catalog: RunCatalog;
  /** Trust and fixture answer by tool id, for the test EffectPort. */
  readonly behaviour: ReadonlyMap<
    string,
    { readonly trusted: boolean; readonly fixture?: FixtureTool }
  >;
}

/**
 * Builds the RunCatalog a scenario Host gives a prompt declaring `uses` (the way a Host
 * prepares a run: one Pack per Pack id, a declared third-party Pack replacing the runvil one,
 * the tools of unusable Packs left out, wire names null for reserved names, non-object schemas
 * and repeated wire names).
 */
export function scenarioCatalog(
  host: ScenarioHost,
  uses: readonly UsesDeclaration[],
): ScenarioCatalog {
  const official = host.packs ?? ["web", "user-input", "subagents"];
  const services = new Set(host.services ?? ["input-broker", "search-provider"]);
  const declared = new Map(uses.map((entry) => [entry.packId, entry.vendor]));
  const packs = new Map<string, RunPack>();
  const behaviour = new Map<string, { trusted: boolean; fixture?: FixtureTool }>();
  const candidates: {
    tool: Omit<CatalogTool, "wireName">;
    trusted: boolean;
    fixture?: FixtureTool;
  }[] = [];
  const addPack = (id: string, vendor: string): void => {
    let unavailable = host.unavailable?.[id] ?? null;
    const need = NEEDS[id];
    if (
      unavailable === null &&
      vendor === "runvil" &&
      need !== undefined &&
      !services.has(need[0])
    ) {
      unavailable = `${id} needs ${need[1]}, and this host provides none`;
    }
    packs.set(id, { id, fullName: `${vendor}/${id}`, declared: declared.has(id), unavailable });
  };
  for (const id of official) {
    const vendor = declared.get(id);
    if (vendor !== undefined && vendor !== "runvil") continue;
    addPack(id, "runvil");
  }
  for (const fixture of host.fixture_tools ?? []) {
    const pack = packOfTool(fixture.id);
    const vendor = fixture.declared === true ? (fixture.vendor ?? "fixture") : "runvil";
    if (fixture.declared === true && declared.get(pack) !== vendor) continue;
    if (!packs.has(pack)) addPack(pack, vendor);
    candidates.push({
      tool: {
        id: fixture.id,
        pack,
        description: fixture.description,
        parameters: fixture.parameters,
        structured: fixture.structured === true,
      },
      trusted: fixture.trusted !== false,
      fixture,
    });
  }
  for (const tool of OFFICIAL_TOOLS) {
    const pack = packOfTool(tool.id);
    if (packs.get(pack)?.fullName !== `runvil/${pack}`) continue;
    candidates.push({
      tool: {
        id: tool.id,
        pack,
        description: tool.description,
        parameters: tool.parameters,
        structured: false,
      },
      trusted: tool.trusted,
    });
  }
  candidates.sort((a, b) => (a.tool.id < b.tool.id ? -1 : a.tool.id > b.tool.id ? 1 : 0));
  const wireNames = new Set<string>();
  const tools: CatalogTool[] = [];
  for (const { tool, trusted, fixture } of candidates) {
    if (packs.get(tool.pack)?.unavailable !== null) continue;
    const wire = toWireName(tool.id);
    const schemaIsObject =
      tool.parameters !== null &&
      typeof tool.parameters === "object" &&
      !Array.isArray(tool.parameters);
    const offerable = !isTaskBuiltinName(wire) && schemaIsObject && !wireNames.has(wire);
    if (offerable) wireNames.add(wire);
    tools.push({ ...tool, wireName: offerable ? wire : null });
    behaviour.set(tool.id, fixture === undefined ? { trusted } : { trusted, fixture });
  }
  return {
    catalog: { tools, packs: [...packs.values()], preludes: [], dropped: [] },
    behaviour,
  };
}
