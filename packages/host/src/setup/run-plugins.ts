import type { ModelProvider, PackDefinition, PluginApi, PluginDefinition } from "@runvil/sdk";
import type { PluginEntry } from "../host-options";
import { HostSetupError } from "../host-setup-error";
import { ModelCatalog } from "./model-catalog";
import { typeName } from "./pack-checks";
import type { PackRegistry } from "./pack-registry";

/** What the plugins' setups gave the Host. */
export interface PluginResults {
  /** Services by id, from provideService, in the order provided. */
  readonly services: ReadonlyMap<string, unknown>;
  /** The model catalog: the providers added, in order, and their models by catalog id. */
  readonly models: ModelCatalog;
}

function isPlugin(value: unknown): value is PluginDefinition<unknown> {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<PluginDefinition<unknown>>;
  return typeof candidate.name === "string" && typeof candidate.setup === "function";
}

/** The state every plugin's API writes to while the Host sets up. */
class SetupSession implements PluginResults {
  readonly services = new Map<string, unknown>();
  readonly models = new ModelCatalog();
  readonly #owners = new Map<string, string>();
  readonly #registry: PackRegistry;
  #open = true;

  constructor(registry: PackRegistry) {
    this.#registry = registry;
  }

  /** Ends setup: the registry freezes and every API call throws. */
  close(): void {
    this.#open = false;
    this.#registry.freeze();
  }

  /**
   * The API of plugin `name`, and a way to read the first HostSetupError one of its calls
   * threw (kept even when the plugin caught it).
   */
  apiFor(
    name: string,
    configDir: string | undefined,
  ): { api: PluginApi; problem: () => HostSetupError | undefined } {
    let problem: HostSetupError | undefined;
    const guard = (method: string, action: () => void): void => {
      if (!this.#open) {
        throw new Error(
          `plugin ${name}: ${method} was called after the Host finished setting up; the Pack registry is frozen`,
        );
      }
      try {
        action();
      } catch (error) {
        if (error instanceof HostSetupError) problem ??= error;
        throw error;
      }
    };
    const api: PluginApi = {
      addPack: (pack: PackDefinition) => guard("addPack", () => this.#registry.add(name, pack)),
      provideService: (id: string, service: unknown) =>
        guard("provideService", () => this.#provide(name, id, service)),
      addModelProvider: (provider: ModelProvider) =>
        guard("addModelProvider", () => this.models.add(name, provider)),
      ...(configDir === undefined ? {} : { configDir }),
    };
    return { api, problem: () => problem };
  }

  #provide(plugin: string, id: unknown, service: unknown): void {
    if (typeof id !== "string" || id === "") {
      throw new HostSetupError(plugin, `provideService needs a service id, got ${typeName(id)}`);
    }
    const owner = this.#owners.get(id);
    if (owner !== undefined) {
      throw new HostSetupError(plugin, `service ${id} is already provided by plugin ${owner}`);
    }
    this.#owners.set(id, plugin);
    this.services.set(id, service);
  }
}

async function setupPlugin(
  session: SetupSession,
  entry: PluginEntry,
  index: number,
): Promise<void> {
  const plugin: unknown = entry?.plugin;
  if (!isPlugin(plugin)) {
    throw new HostSetupError(
      `plugins[${index}]`,
      "not a plugin (expected an object with a string name and a setup function)",
    );
  }
  const configDir = typeof entry.configDir === "string" ? entry.configDir : undefined;
  const { api, problem } = session.apiFor(plugin.name, configDir);
  try {
    await plugin.setup(api, entry.options);
  } catch (error) {
    const found = problem();
    if (found !== undefined) throw found;
    if (error instanceof HostSetupError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new HostSetupError(plugin.name, `setup failed: ${message}`, { cause: error });
  }
  const found = problem();
  if (found !== undefined) throw found;
}

/**
 * Calls every plugin's setup, in order, each with its own PluginApi, then closes the APIs:
 * the registry freezes and a later call throws. A problem found in an API call rejects with
 * its HostSetupError even when the plugin caught it; a setup that throws anything else
 * rejects with `plugin {name}: setup failed: {message}`.
 */
export async function runPlugins(
  entries: readonly PluginEntry[],
  registry: PackRegistry,
): Promise<PluginResults> {
  const session = new SetupSession(registry);
  try {
    for (const [index, entry] of entries.entries()) await setupPlugin(session, entry, index);
  } finally {
    session.close();
  }
  return { services: session.services, models: session.models };
}
