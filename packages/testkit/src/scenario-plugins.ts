import type { PluginEntry } from "@runvil/host";
import {
  definePlugin,
  INPUT_BROKER,
  type PackDefinition,
  type PluginApi,
  type PluginDefinition,
  SEARCH_PROVIDER,
} from "@runvil/sdk";
import { RUNVIL_VENDOR } from "./fixture-packs";
import { OFFICIAL_PACKS } from "./scenario-types";

/** The name of the plugin that adds a case's Packs and scripted model provider. */
export const SCENARIO_PLUGIN_NAME = "@runvil/testkit scenario";

/** The services the case decides (`host.services`); a user plugin's offer of them is ignored. */
const CASE_SERVICES: readonly string[] = [INPUT_BROKER, SEARCH_PROVIDER];

/**
 * The plugin of a case: adds the scenario's Packs (official and fixture) and its scripted model
 * provider, and provides nothing else (the case's services are the Host's own services).
 */
export function scenarioPlugin(
  packs: readonly PackDefinition[],
  models: Parameters<PluginApi["addModelProvider"]>[0],
): PluginDefinition {
  return definePlugin({
    name: SCENARIO_PLUGIN_NAME,
    setup(api) {
      for (const pack of packs) api.addPack(pack);
      api.addModelProvider(models);
    },
  });
}

function isOfficialPack(pack: PackDefinition): boolean {
  return pack.vendor === RUNVIL_VENDOR && OFFICIAL_PACKS.some((id) => id === pack.name);
}

/**
 * A user's plugin entry (from a runvil.config.json beside the scenario file) as a scenario Host
 * runs it: its own Packs and services reach the Host, but the case stays in charge of what it
 * scripts. The official Packs (`runvil/web`, `runvil/user-input`, `runvil/subagents`) come
 * from `host.packs`, the input broker and search provider from `host.services`, and models
 * from `models`: the plugin's offers of those are ignored, so a scenario never reaches the
 * real web, the terminal or a real model.
 */
export function scenarioGuardedEntry(entry: PluginEntry): PluginEntry {
  const plugin = entry.plugin as PluginDefinition<unknown>;
  const guarded = definePlugin<unknown>({
    name: plugin.name,
    setup(api, options) {
      const filtered: PluginApi = {
        addPack(pack) {
          if (!isOfficialPack(pack)) api.addPack(pack);
        },
        provideService(id, service) {
          if (!CASE_SERVICES.includes(id)) api.provideService(id, service);
        },
        addModelProvider() {},
        ...(api.configDir === undefined ? {} : { configDir: api.configDir }),
      };
      return plugin.setup(filtered, options);
    },
  });
  return {
    plugin: guarded,
    ...(entry.options === undefined ? {} : { options: entry.options }),
    ...(entry.configDir === undefined ? {} : { configDir: entry.configDir }),
  };
}
