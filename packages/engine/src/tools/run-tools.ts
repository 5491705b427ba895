import type { CatalogTool, RunCatalog } from "@runvil/protocol";
import type { RunContext } from "../run/run-context";
import { sortNames } from "./debug-quote";

/** A Pack that has a Pack object in the run. */
export interface RunPackObject {
  /** The Pack id (`web`). */
  readonly id: string;
  /** Whether the prompt declares it under `uses:` (it is then in packs.required()). */
  readonly declared: boolean;
  /** Its tools in the run's offering, in tool id order. */
  readonly tools: readonly CatalogTool[];
}

/** The Pack id of a tool: the first segment of its id. */
export function packOfTool(id: string): string {
  const slash = id.indexOf("/");
  return slash < 0 ? id : id.slice(0, slash);
}

function byId(a: CatalogTool, b: CatalogTool): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * What one run knows of tools and Packs, built once from the RunCatalog and the prompt's
 * declared Packs (tools chapter, "Which Packs have objects"):
 *
 * - the **catalog**: every tool `tools.call` can reach by id;
 * - the **offering**: the catalog tools the run can offer (a wire name, and a Pack with an
 *   object), in tool id order; only these have Tool objects;
 * - the **Packs with objects**: with the Host's report, every usable Pack, every declared Pack
 *   and every Pack that offers a tool (has one with a wire name), minus the Packs reported
 *   unavailable (a Pack reported both ways counts as unavailable); without a report, the
 *   declared Packs plus every Pack that has a catalog tool.
 */
export class RunTools {
  /** The offering, in tool id order. */
  readonly offering: readonly CatalogTool[];
  /** The offering's ids, sorted (the unbound_tool message lists them). */
  readonly offeringIds: readonly string[];
  /** The Packs with objects, by id, in Pack id order. */
  readonly packs: ReadonlyMap<string, RunPackObject>;
  /** The Packs the Host reports as unable to serve, with its reason. */
  readonly unavailable: ReadonlyMap<string, string>;
  /** The offering tools whose Pack is declared, in tool id order. */
  readonly requiredTools: readonly CatalogTool[];
  /** The offering tools whose Pack is not declared, in tool id order. */
  readonly extraTools: readonly CatalogTool[];
  /** The declared Packs with objects, in Pack id order. */
  readonly requiredPacks: readonly string[];
  /** The other Packs with objects, in Pack id order. */
  readonly extraPacks: readonly string[];
  private readonly catalogById: ReadonlyMap<string, CatalogTool>;
  private readonly offeringById: ReadonlyMap<string, CatalogTool>;
  private readonly offeringByWireName: ReadonlyMap<string, CatalogTool>;

  constructor(catalog: RunCatalog, declaredPacks: readonly string[]) {
    const tools = [...catalog.tools].sort(byId);
    this.catalogById = new Map(tools.map((tool) => [tool.id, tool]));
    const declared = new Set(declaredPacks);
    const unavailable = new Map<string, string>();
    const usable = new Set<string>();
    for (const pack of catalog.packs ?? []) {
      if (pack.declared) declared.add(pack.id);
      if (pack.unavailable !== null) {
        if (!unavailable.has(pack.id)) unavailable.set(pack.id, pack.unavailable);
      } else {
        usable.add(pack.id);
      }
    }
    const withObjects = new Set<string>([...usable, ...declared]);
    // Without a report, every Pack with a catalog tool; with one, an unreported undeclared
    // Pack only when it offers a tool (a tool the run leaves out does not count).
    const reported = catalog.packs !== null;
    for (const tool of tools) {
      if (!reported || tool.wireName !== null) withObjects.add(tool.pack);
    }
    for (const id of unavailable.keys()) withObjects.delete(id);
    this.unavailable = unavailable;
    this.offering = tools.filter((tool) => tool.wireName !== null && withObjects.has(tool.pack));
    this.offeringById = new Map(this.offering.map((tool) => [tool.id, tool]));
    this.offeringIds = sortNames(this.offering.map((tool) => tool.id));
    this.offeringByWireName = new Map(this.offering.map((tool) => [tool.wireName ?? "", tool]));
    const packs = new Map<string, RunPackObject>();
    for (const id of sortNames(withObjects)) {
      packs.set(id, {
        id,
        declared: declared.has(id),
        tools: this.offering.filter((tool) => tool.pack === id),
      });
    }
    this.packs = packs;
    const isDeclared = (tool: CatalogTool): boolean => declared.has(tool.pack);
    this.requiredTools = this.offering.filter(isDeclared);
    this.extraTools = this.offering.filter((tool) => !isDeclared(tool));
    this.requiredPacks = [...packs.values()].filter((p) => p.declared).map((p) => p.id);
    this.extraPacks = [...packs.values()].filter((p) => !p.declared).map((p) => p.id);
  }

  /** The offered tool with this exact id, if any. */
  offered(id: string): CatalogTool | undefined {
    return this.offeringById.get(id);
  }

  /**
   * The offered tool a model would call by this wire name, if any (the out_of_scope_tool
   * message's not-offered hint). Wire names are unique in the offering.
   */
  offeredByWireName(name: string): CatalogTool | undefined {
    return this.offeringByWireName.get(name);
  }

  /** The catalog tool with this exact id, offered or left out, if any. */
  catalogTool(id: string): CatalogTool | undefined {
    return this.catalogById.get(id);
  }
}

const byRun = new WeakMap<RunContext, RunTools>();

/** The run's RunTools, built at first use from the run's catalog and declared Packs. */
export function runToolsOf(ctx: RunContext): RunTools {
  let tools = byRun.get(ctx);
  if (tools === undefined) {
    tools = new RunTools(
      ctx.options.catalog,
      ctx.prompt.frontmatter.uses.map((entry) => entry.packId),
    );
    byRun.set(ctx, tools);
  }
  return tools;
}
