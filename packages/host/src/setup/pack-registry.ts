import type { DroppedTool } from "@runvil/protocol";
import type { PackDefinition } from "@runvil/sdk";
import { HostSetupError } from "../host-setup-error";
import { nameProblem, shapeProblem, typeName, vendorProblem } from "./pack-checks";
import type { RegisteredPack } from "./registered-pack";
import { checkPackTools } from "./tool-checks";

/** A tool the Host dropped, with the fully qualified name of the Pack that contributed it. */
export interface HostDroppedTool extends DroppedTool {
  /** The Pack's fully qualified name (`pack` is its Pack id). */
  readonly fullName: string;
}

/** The Host's Pack registry: every Pack plugins added, by fully qualified name. */
export class PackRegistry {
  readonly #packs = new Map<string, RegisteredPack>();
  readonly #dropped: HostDroppedTool[] = [];
  #frozen = false;

  /** Every Pack, in the order added. */
  get packs(): readonly RegisteredPack[] {
    return [...this.#packs.values()];
  }

  /** Every dropped tool, in the order found. */
  get dropped(): readonly HostDroppedTool[] {
    return this.#dropped;
  }

  /** Whether the registry takes no more Packs. */
  get frozen(): boolean {
    return this.#frozen;
  }

  /** Refuses every later {@link add}. */
  freeze(): void {
    this.#frozen = true;
  }

  /** The Pack of a fully qualified name, or undefined. */
  get(fullName: string): RegisteredPack | undefined {
    return this.#packs.get(fullName);
  }

  /** Every Pack whose Pack id is `id`, any vendor, sorted by fully qualified name. */
  withId(id: string): RegisteredPack[] {
    return this.packs
      .filter((pack) => pack.id === id)
      .sort((a, b) => compare(a.fullName, b.fullName));
  }

  /**
   * Adds a Pack from `plugin`. Throws a HostSetupError for a Pack that is not an object, an
   * invalid vendor or name, a bad shape, or a fully qualified name already added; an Error once
   * the registry is frozen. Tools whose ids are malformed or escape the Pack id are dropped.
   */
  add(plugin: string, pack: PackDefinition): void {
    if (this.#frozen) {
      throw new Error(
        `plugin ${plugin}: addPack was called after the Host finished setting up; the Pack registry is frozen`,
      );
    }
    if (typeof pack !== "object" || pack === null || Array.isArray(pack)) {
      throw new HostSetupError(plugin, `addPack needs a Pack, got ${typeName(pack)}`);
    }
    const problem = vendorProblem(pack.vendor) ?? nameProblem(pack.name);
    if (problem !== undefined) throw new HostSetupError(plugin, problem);
    const fullName = `${pack.vendor}/${pack.name}`;
    const shape = shapeProblem(pack);
    if (shape !== undefined) throw new HostSetupError(plugin, `Pack ${fullName}: ${shape}`);
    const earlier = this.#packs.get(fullName);
    if (earlier !== undefined) {
      const by = earlier.plugin === plugin ? "by this plugin" : `by plugin ${earlier.plugin}`;
      throw new HostSetupError(plugin, `Pack ${fullName} is already registered ${by}`);
    }
    const tools = checkPackTools(pack.name, pack.tools);
    for (const dropped of tools.dropped) this.#dropped.push({ ...dropped, fullName });
    this.#packs.set(fullName, {
      fullName,
      vendor: pack.vendor,
      id: pack.name,
      plugin,
      definition: pack,
      services: [...new Set(pack.services ?? [])],
      tools: tools.kept,
      startFailure: null,
    });
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
