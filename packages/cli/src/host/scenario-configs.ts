import { loadHostConfig, type PluginEntry } from "@runvil/host";
import type { RunBudget } from "@runvil/protocol";
import { configFileFor } from "./cli-host";
import { scenarioProviderLoader } from "./model-providers";
import { OFFICIAL_MODULES } from "./official-plugins";

/** What a scenario file's cases take from the runvil.config.json that applies to it. */
export interface ScenarioConfig {
  /** The file's plugins, which join every case's Host. */
  readonly plugins: readonly PluginEntry[];
  /** The file's `budget`, which every case's run is held to as `runvil run`'s would be. */
  readonly budget?: RunBudget;
}

/** A scenario file without a configuration: no plugins, no budget. */
const NO_CONFIG: ScenarioConfig = { plugins: [] };

/**
 * The runvil.config.json that applies to each scenario file (the same lookup as `runvil run`),
 * loaded once per configuration file: `runvil test` adds its plugins to every case's Host and
 * holds every case to its budget (docs/design/budgets.md). The file's model providers come too
 * (a case binds its roles to scripted models, so they serve no round); the default providers
 * never do, so a key in the environment changes no scenario. Rejects with the configuration's
 * error (its message names the file).
 */
export class ScenarioConfigs {
  readonly #byConfig = new Map<string, Promise<ScenarioConfig>>();

  /** The configuration for the scenario file at `path` (no plugins, no budget when none applies). */
  async for(path: string): Promise<ScenarioConfig> {
    const configFile = await configFileFor({ promptFile: path });
    if (configFile === undefined) return NO_CONFIG;
    let config = this.#byConfig.get(configFile);
    if (config === undefined) {
      config = loadHostConfig(configFile, {
        builtins: OFFICIAL_MODULES,
        providers: scenarioProviderLoader(),
      }).then(({ plugins, budget }) => (budget === undefined ? { plugins } : { plugins, budget }));
      this.#byConfig.set(configFile, config);
    }
    return config;
  }
}
