import { createHost, type Host, type PluginEntry } from "@runvil/host";
import type { RunBudget } from "@runvil/protocol";
import { INPUT_BROKER, SEARCH_PROVIDER } from "@runvil/sdk";
import { scenarioPacks } from "./fixture-packs";
import { FixtureSearchProvider } from "./fixture-web";
import { officialPacks } from "./official-packs";
import { scenarioGuardedEntry, scenarioPlugin } from "./scenario-plugins";
import type { ScenarioCase } from "./scenario-types";
import { ScriptedInputBroker } from "./scripted-input-broker";
import { ScriptedModelProvider } from "./scripted-model-provider";

/** A case's Host and the scripted parties behind it. */
export interface ScenarioHostSetup {
  /** The Host the case's run is prepared on. */
  readonly host: Host;
  /** The operator (`runvil/input-broker` when `host.services` lists `input-broker`). */
  readonly broker: ScriptedInputBroker;
  /** The search provider (`runvil/search-provider` when `host.services` lists it). */
  readonly search: FixtureSearchProvider;
  /** The scripted model provider (`models`). */
  readonly models: ScriptedModelProvider;
}

/**
 * Builds the Host of a case: the official Packs of `host.packs` (web on the case's pages), the
 * fixture Packs of `host.fixture_tools` / `host.fixture_preludes`, the `host.unavailable`
 * reasons, the services of `host.services` (the scripted operator, the fixture search
 * provider), the scripted model provider, and the user's `plugins` (guarded: see
 * {@link scenarioGuardedEntry}), and the `budget` of their configuration, which every run of
 * the Host is held to as `runvil run` holds it (docs/design/budgets.md). Rejects as createHost does (a HostSetupError for a plugin
 * that breaks the Host's rules).
 */
export async function createScenarioHost(
  scenarioCase: ScenarioCase,
  plugins: readonly PluginEntry[] = [],
  budget?: RunBudget,
): Promise<ScenarioHostSetup> {
  const broker = new ScriptedInputBroker(scenarioCase.operator);
  const search = new FixtureSearchProvider(scenarioCase.web.search);
  const models = new ScriptedModelProvider(scenarioCase.models);
  const packs = scenarioPacks(
    scenarioCase.host,
    officialPacks(scenarioCase.host.packs, scenarioCase.web),
  );
  const services: Record<string, unknown> = {};
  if (scenarioCase.host.services.includes("input-broker")) services[INPUT_BROKER] = broker;
  if (scenarioCase.host.services.includes("search-provider")) services[SEARCH_PROVIDER] = search;
  const host = await createHost({
    plugins: [{ plugin: scenarioPlugin(packs, models) }, ...plugins.map(scenarioGuardedEntry)],
    services,
    ...(budget === undefined ? {} : { budget }),
  });
  return { host, broker, search, models };
}
