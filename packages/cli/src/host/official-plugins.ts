import type { PluginEntry } from "@runvil/host";
import * as subagents from "@runvil/plugin-subagents";
import { subagentsPlugin } from "@runvil/plugin-subagents";
import * as userInput from "@runvil/plugin-user-input";
import { userInputPlugin } from "@runvil/plugin-user-input";
import * as web from "@runvil/plugin-web";
import { webPlugin } from "@runvil/plugin-web";

/**
 * The official plugin modules the CLI carries, by package name: a runvil.config.json may name
 * them (`{ "module": "@runvil/plugin-web", "export": "searxngSearchPlugin", ... }`) without
 * installing them next to the file.
 */
export const OFFICIAL_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "@runvil/plugin-web": web,
  "@runvil/plugin-user-input": userInput,
  "@runvil/plugin-subagents": subagents,
};

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
