import { RUNVIL_VENDOR, type UsesEntry } from "@runvil/names";
import type { RunPack, RunPrelude } from "@runvil/protocol";
import type { Services, ToolDefinition } from "@runvil/sdk";
import type { CatalogModel } from "../setup/model-catalog";
import type { PackRegistry } from "../setup/pack-registry";
import type { RegisteredPack } from "../setup/registered-pack";
import { byId } from "../setup/tool-checks";
import { bindModels, type ModelRoleRequirement, runModelRole } from "./bind-models";
import { catalogTools } from "./offering";
import type { PreparedPack, PrepareResult } from "./prepared-run";
import {
  missingPackLine,
  missingServiceLine,
  missingServiceReason,
  notInstalledLine,
  otherVendorLine,
  requirementsNotice,
  unavailableLine,
} from "./requirements-notice";

/** What prepare reads of a prompt: its `uses:` entries and `models:` roles. A parsed Prompt fits. */
export interface PromptRequirements {
  readonly frontmatter: {
    readonly uses: readonly UsesEntry[];
    readonly models: readonly ModelRoleRequirement[];
  };
}

/** What binding needs from the Host and the run: the catalog, the run's overrides, the Host's default. */
export interface ModelBindingContext {
  readonly catalog: ReadonlyMap<string, CatalogModel>;
  readonly overrides: Readonly<Record<string, string>>;
  readonly defaultModel: string | undefined;
}

/** One Pack of the run with its standing. */
interface RunMember {
  readonly pack: RegisteredPack;
  readonly declared: boolean;
  readonly unavailable: string | null;
}

/** The notice line for a declared entry the registry has no Pack for. */
function absentLine(entry: UsesEntry, registry: PackRegistry): string {
  if (entry.vendor !== RUNVIL_VENDOR) return notInstalledLine(entry.packId, entry.fullName);
  const others = registry.withId(entry.packId).map((pack) => pack.fullName);
  return others.length === 0
    ? missingPackLine(entry.packId)
    : otherVendorLine(entry.packId, others);
}

function missingServices(pack: RegisteredPack, services: Services): string[] {
  return pack.services.filter((id) => !services.has(id));
}

/** The notice lines of a declared Pack the Host has: a failed start, or each missing service. */
function declaredLines(pack: RegisteredPack, services: Services): string[] {
  if (pack.startFailure !== null) return [unavailableLine(pack.id, pack.startFailure)];
  return missingServices(pack, services).map((id) => missingServiceLine(pack.id, id));
}

/** Why an undeclared Pack cannot serve the run (its failed start, its first missing service), or null. */
function undeclaredReason(pack: RegisteredPack, services: Services): string | null {
  if (pack.startFailure !== null) return pack.startFailure;
  const [missing] = missingServices(pack, services);
  return missing === undefined ? null : missingServiceReason(pack.id, missing);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Prepares one run of `prompt` against the registry (tools chapter, "What declaring a Pack
 * does", "The tool catalog and extra Packs", "Which Packs have objects"):
 *
 * 1. Every declared entry, in `uses:` order, must name a Pack the Host has that can serve the
 *    run; each problem is one notice line, and any line refuses the run.
 * 2. The run's Packs: the declared ones, plus every runvil Pack whose id no entry takes.
 * 3. The catalog: the tools of every usable Pack of the run, sorted by tool id, each with its
 *    wire name or null when the offering cannot hold it.
 * 4. Every model role, in `models:` order, bound to a catalog model (bind-models.ts); a role
 *    that does not bind is one notice line, after the Pack lines.
 */
export function prepareRun(
  prompt: PromptRequirements,
  registry: PackRegistry,
  services: Services,
  models: ModelBindingContext,
): PrepareResult {
  const { uses } = prompt.frontmatter;
  const lines: string[] = [];
  const members: RunMember[] = [];
  for (const entry of uses) {
    const pack = registry.get(entry.fullName);
    if (pack === undefined) {
      lines.push(absentLine(entry, registry));
      continue;
    }
    lines.push(...declaredLines(pack, services));
    members.push({ pack, declared: true, unavailable: null });
  }
  const binding = bindModels(prompt.frontmatter.models, models);
  if (!binding.ok) lines.push(...binding.lines);
  if (lines.length > 0 || !binding.ok) return { ok: false, notice: requirementsNotice(lines) };

  const taken = new Set(uses.map((entry) => entry.packId));
  for (const pack of registry.packs) {
    if (pack.vendor !== RUNVIL_VENDOR || taken.has(pack.id)) continue;
    members.push({ pack, declared: false, unavailable: undeclaredReason(pack, services) });
  }
  members.sort((a, b) => compare(a.pack.id, b.pack.id));

  const usable = members.filter((member) => member.unavailable === null);
  const tools = usable
    .flatMap(({ pack }) => pack.tools.map((definition) => ({ pack: pack.id, definition })))
    .sort((a, b) => byId(a.definition, b.definition));
  const toolMap = new Map<string, ToolDefinition>(
    tools.map((t) => [t.definition.id, t.definition]),
  );

  const packs: RunPack[] = members.map(({ pack, declared, unavailable }) => ({
    id: pack.id,
    fullName: pack.fullName,
    declared,
    unavailable,
  }));
  const preludes: RunPrelude[] = [];
  for (const entry of uses) {
    const source = registry.get(entry.fullName)?.definition.prelude;
    if (source !== undefined) preludes.push({ pack: entry.packId, source });
  }
  const inRun = new Set(members.map(({ pack }) => pack.fullName));
  const dropped = registry.dropped
    .filter((tool) => inRun.has(tool.fullName))
    .map(({ tool, pack, reason }) => ({ tool, pack, reason }));

  const prepared: PreparedPack[] = members.map(({ pack, declared, unavailable }) => ({
    id: pack.id,
    fullName: pack.fullName,
    declared,
    unavailable,
    description: pack.definition.description,
    plugin: pack.plugin,
    tools: unavailable === null ? pack.tools.map((tool) => tool.id) : [],
  }));
  return {
    ok: true,
    run: {
      catalog: {
        tools: catalogTools(tools),
        packs,
        preludes,
        dropped,
        models: binding.roles.map(runModelRole),
      },
      tools: toolMap,
      services,
      packs: prepared,
      models: binding.roles,
      modelProviders: binding.providers,
    },
  };
}
