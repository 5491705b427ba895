import type { PluginEntry } from "@runvil/host";
import { subagentsPlugin } from "@runvil/plugin-subagents";
import { userInputPlugin } from "@runvil/plugin-user-input";
import { webPlugin } from "@runvil/plugin-web";

/**
 * The official plugins every CLI Host starts from: web, user-input and subagents, with no
 * options (so no search provider: runvil/web is unavailable until one is configured).
 */
export function officialPlugins(): PluginEntry[] {
  return [{ plugin: webPlugin }, { plugin: userInputPlugin }, { plugin: subagentsPlugin }];
}

/**
 * The Host's plugin list: the official plugins, then the configured ones. A configured plugin
 * with the same name as an official one (such as `@runvil/plugin-web` with options) takes its
 * place.
 */
export function withOfficialPlugins(configured: readonly PluginEntry[]): PluginEntry[] {
  const names = new Set(configured.map((entry) => entry.plugin.name));
  return [...officialPlugins().filter((entry) => !names.has(entry.plugin.name)), ...configured];
}
