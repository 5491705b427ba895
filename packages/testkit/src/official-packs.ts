import { subagentsPack } from "@runvil/plugin-subagents";
import { userInputPack } from "@runvil/plugin-user-input";
import { createWebPack } from "@runvil/plugin-web";
import type { PackDefinition } from "@runvil/sdk";
import { fixturePageFetcher } from "./fixture-web";
import type { OfficialPackId, ScenarioWeb } from "./scenario-types";

/**
 * The official Packs a scenario Host serves (`host.packs`, in that order): `web` is the
 * official web Pack with its fetch layer swapped for the case's `web.pages`
 * ({@link fixturePageFetcher}); `user-input` and `subagents` are the official Packs as they
 * are (their services come from the scenario's services).
 */
export function officialPacks(ids: readonly OfficialPackId[], web: ScenarioWeb): PackDefinition[] {
  return ids.map((id) => officialPack(id, web));
}

function officialPack(id: OfficialPackId, web: ScenarioWeb): PackDefinition {
  if (id === "web") return createWebPack({ fetchPage: fixturePageFetcher(web.pages) });
  return id === "user-input" ? userInputPack : subagentsPack;
}
