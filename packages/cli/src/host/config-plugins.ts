import { loadHostConfig, type PluginEntry } from "@runvil/host";
import { configFileFor } from "./cli-host";
import { scenarioProviderLoader } from "./model-providers";
import { OFFICIAL_MODULES } from "./official-plugins";

/**
 * The plugins of the runvil.config.json that applies to each scenario file (the same lookup as
 * `runvil run`), loaded once per configuration file: `runvil test` adds them to every case's
 * Host. The file's model providers come too (a case binds its roles to scripted models, so
 * they serve no round); the default providers never do, so a key in the environment changes
 * no scenario. Rejects with the configuration's error (its message names the file).
 */
export class ConfigPlugins {
  readonly #byConfig = new Map<string, Promise<readonly PluginEntry[]>>();

  /** The plugins for the scenario file at `path` (`[]` when no configuration applies). */
  async for(path: string): Promise<readonly PluginEntry[]> {
    const configFile = await configFileFor({ promptFile: path });
    if (configFile === undefined) return [];
    let plugins = this.#byConfig.get(configFile);
    if (plugins === undefined) {
      plugins = loadHostConfig(configFile, {
        builtins: OFFICIAL_MODULES,
        providers: scenarioProviderLoader(),
      }).then((config) => config.plugins);
      this.#byConfig.set(configFile, plugins);
    }
    return plugins;
  }
}
