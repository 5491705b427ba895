import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { InputFileError, readInputFile } from "../files/read-input-file";
import type { HostOptions, PluginEntry } from "../host-options";
import { HostConfigError } from "./host-config-error";
import {
  HOST_CONFIG_FILE,
  type HostConfig,
  type PluginConfig,
  type ProviderConfig,
  parseHostConfig,
} from "./parse-host-config";
import { pluginExport } from "./plugin-export";
import { ModuleNotFound, resolveModule } from "./resolve-module";

/** As readFile(file, "utf8") decoded: bad bytes become U+FFFD, a BOM is kept. */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** One `providers` entry of a configuration file, its module loaded. */
export interface ProviderModuleEntry {
  /** The entry's key path, such as `providers.local` (for messages). */
  readonly key: string;
  /** The provider's name (the entry's key). */
  readonly name: string;
  /** The module as written (`@ai-sdk/openai-compatible`). */
  readonly module: string;
  /** The module's exports. */
  readonly namespace: Readonly<Record<string, unknown>>;
  /** The entry's other keys, as written. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/**
 * How a configuration's `providers` become a plugin (the CLI's is `@runvil/plugin-ai-sdk`):
 * the Host resolves and imports each entry's module and hands the entries over.
 */
export interface ProviderModuleLoader {
  /**
   * Provider modules the caller carries, loaded on first use, by the name a config gives them
   * (such as `@ai-sdk/openai`): used when the name cannot be resolved from the file's directory.
   */
  readonly builtins?: Readonly<Record<string, () => Promise<Readonly<Record<string, unknown>>>>>;
  /**
   * The plugin entry adding the providers, or undefined for none. Called with the loaded
   * entries, or with undefined when the file has no `providers` key (a caller may then add
   * default providers). An Error it throws becomes a HostConfigError naming the file: its
   * message should start with the entry's key path.
   */
  readonly plugin: (
    entries: readonly ProviderModuleEntry[] | undefined,
  ) => PluginEntry | undefined | Promise<PluginEntry | undefined>;
}

/** Options of {@link loadHostConfig}. */
export interface LoadHostConfigOptions {
  /**
   * Loads the file's `providers`. Without it, a file with a `providers` key is refused
   * (`providers: this host cannot load model providers`).
   */
  readonly providers?: ProviderModuleLoader;
  /**
   * Modules the caller already holds, by the name a config file gives them (such as
   * `@runvil/plugin-web` for a CLI that bundles the official plugins): used when the name
   * cannot be resolved from the config file's directory.
   */
  readonly builtins?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

async function loadPlugin(
  file: string,
  dir: string,
  entry: PluginConfig,
  builtins: LoadHostConfigOptions["builtins"],
): Promise<PluginEntry> {
  const quoted = JSON.stringify(entry.module);
  let path: string | undefined;
  try {
    path = resolveModule(entry.module, dir);
  } catch (error) {
    if (builtins === undefined || !Object.hasOwn(builtins, entry.module)) {
      const detail = error instanceof ModuleNotFound ? `: ${error.message}` : "";
      throw new HostConfigError(file, `${entry.key}.module: cannot find ${quoted}${detail}`, {
        cause: error,
      });
    }
  }
  let namespace: Readonly<Record<string, unknown>>;
  try {
    namespace =
      path === undefined
        ? (builtins?.[entry.module] ?? {})
        : ((await import(pathToFileURL(path).href)) as Record<string, unknown>);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HostConfigError(file, `${entry.key}.module: cannot load ${quoted}: ${detail}`, {
      cause: error,
    });
  }
  const picked = pluginExport(namespace, entry.export, entry.module);
  if (!picked.ok) {
    const key = entry.export === undefined ? `${entry.key}.module` : `${entry.key}.export`;
    throw new HostConfigError(file, `${key}: ${picked.problem}`);
  }
  return entry.options === undefined
    ? { plugin: picked.plugin, configDir: dir }
    : { plugin: picked.plugin, options: entry.options, configDir: dir };
}

async function importModule(
  file: string,
  dir: string,
  key: string,
  module: string,
  builtin: (() => Promise<Readonly<Record<string, unknown>>>) | undefined,
): Promise<Readonly<Record<string, unknown>>> {
  const quoted = JSON.stringify(module);
  let path: string | undefined;
  try {
    path = resolveModule(module, dir);
  } catch (error) {
    if (builtin === undefined) {
      const detail = error instanceof ModuleNotFound ? `: ${error.message}` : "";
      throw new HostConfigError(file, `${key}.module: cannot find ${quoted}${detail}`, {
        cause: error,
      });
    }
  }
  try {
    return path === undefined
      ? await (builtin as () => Promise<Readonly<Record<string, unknown>>>)()
      : ((await import(pathToFileURL(path).href)) as Record<string, unknown>);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HostConfigError(file, `${key}.module: cannot load ${quoted}: ${detail}`, {
      cause: error,
    });
  }
}

async function providerPlugin(
  file: string,
  dir: string,
  providers: readonly ProviderConfig[] | undefined,
  loader: ProviderModuleLoader | undefined,
): Promise<PluginEntry | undefined> {
  if (loader === undefined) {
    if (providers === undefined) return undefined;
    throw new HostConfigError(file, "providers: this host cannot load model providers");
  }
  let entries: ProviderModuleEntry[] | undefined;
  if (providers !== undefined) {
    entries = [];
    for (const provider of providers) {
      const builtin = loader.builtins?.[provider.module];
      const hasBuiltin =
        loader.builtins !== undefined && Object.hasOwn(loader.builtins, provider.module);
      const namespace = await importModule(
        file,
        dir,
        provider.key,
        provider.module,
        hasBuiltin ? builtin : undefined,
      );
      entries.push({ ...provider, namespace });
    }
  }
  try {
    return await loader.plugin(entries);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HostConfigError(file, detail, { cause: error });
  }
}

/**
 * Reads a `runvil.config.json` and loads its plugins: each `module` is resolved from the
 * file's directory (a relative path, or a package in `node_modules`) and imported, and its
 * plugin export is picked (`export`, else the default export, else the only plugin export).
 * Resolves with the HostOptions for `createHost`; rejects with a HostConfigError whose message
 * names `file` (as given) and the key path. A module that cannot be resolved but is one of
 * `options.builtins` is taken from there. The `providers` entries' modules are loaded the same
 * way and handed to `options.providers.plugin`, whose plugin entry comes after the file's
 * plugins; `defaultModel` becomes the HostOptions' default model.
 */
export async function loadHostConfig(
  file: string,
  options: LoadHostConfigOptions = {},
): Promise<HostOptions> {
  const config = readHostConfig(file);
  const dir = dirname(resolve(file));
  const plugins: PluginEntry[] = [];
  for (const entry of config.plugins) {
    plugins.push(await loadPlugin(file, dir, entry, options.builtins));
  }
  const providers = await providerPlugin(file, dir, config.providers, options.providers);
  if (providers !== undefined) plugins.push(providers);
  return {
    plugins,
    services: config.services,
    ...(config.defaultModel === undefined ? {} : { defaultModel: config.defaultModel }),
    ...(config.budget === undefined ? {} : { budget: config.budget }),
  };
}

/**
 * Reads and checks a `runvil.config.json` without loading its plugins (the CLI reads its
 * `journal` key this way). Throws a HostConfigError naming `file` and the key path.
 */
export function readHostConfig(file: string): HostConfig {
  let text: string;
  try {
    text = UTF8.decode(readInputFile(file, { what: "a configuration file" }));
  } catch (error) {
    const detail = error instanceof InputFileError ? error.detail : String(error);
    throw new HostConfigError(file, `cannot read the file: ${detail}`, { cause: error });
  }
  return parseHostConfig(file, text);
}

/** Whether `path` exists, and as a file. */
async function kind(path: string): Promise<"file" | "other" | "none"> {
  try {
    return (await stat(path)).isFile() ? "file" : "other";
  } catch {
    return "none";
  }
}

/**
 * The `runvil.config.json` of `startDir` or of its nearest ancestor that has one (an absolute
 * path), or undefined when none has. The walk stops after the filesystem root and after a
 * directory holding `.git`: a repository's root is searched, its parent is not.
 */
export async function findHostConfig(startDir: string): Promise<string | undefined> {
  let dir = resolve(startDir);
  for (;;) {
    const candidate = join(dir, HOST_CONFIG_FILE);
    if ((await kind(candidate)) === "file") return candidate;
    if ((await kind(join(dir, ".git"))) !== "none") return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
