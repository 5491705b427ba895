import type { ModelProvider } from "./model";
import type { PackDefinition } from "./pack";

/** What a plugin's `setup` may do to the Host. */
export interface PluginApi {
  /** Adds a Pack to the Host's Pack registry. */
  addPack(pack: PackDefinition): void;
  /** Provides a service (such as `runvil/search-provider`) to every run of the Host. */
  provideService(id: string, service: unknown): void;
  /** Adds a model provider to the Host's model catalog. */
  addModelProvider(provider: ModelProvider): void;
  /**
   * The directory of the `runvil.config.json` that configured the plugin (an absolute path), for
   * resolving relative paths in its options; undefined when the Host was created in code, where
   * relative paths mean the process's working directory.
   */
  readonly configDir?: string;
}

/** A plugin: the way Packs, services and model providers reach a Host. */
export interface PluginDefinition<Options = undefined> {
  /** The plugin's name, such as `@runvil/plugin-web` (for messages). */
  readonly name: string;
  /**
   * Adds the plugin's Packs, services and providers. `options` is the plugin's entry in the
   * Host's configuration (`runvil.config.json`), or undefined when it gives none.
   */
  setup(api: PluginApi, options: Options | undefined): void | Promise<void>;
}

/** Declares a plugin (an identity function that checks the shape at compile time). */
export function definePlugin<Options = undefined>(
  plugin: PluginDefinition<Options>,
): PluginDefinition<Options> {
  return plugin;
}
