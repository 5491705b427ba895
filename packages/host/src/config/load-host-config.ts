import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { InputFileError, readInputFile } from "../files/read-input-file";
import type { HostOptions, PluginEntry } from "../host-options";
import { HostConfigError } from "./host-config-error";
import { HOST_CONFIG_FILE, type PluginConfig, parseHostConfig } from "./parse-host-config";
import { pluginExport } from "./plugin-export";
import { ModuleNotFound, resolveModule } from "./resolve-module";

/** As readFile(file, "utf8") decoded: bad bytes become U+FFFD, a BOM is kept. */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Options of {@link loadHostConfig}. */
export interface LoadHostConfigOptions {
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
    ? { plugin: picked.plugin }
    : { plugin: picked.plugin, options: entry.options };
}

/**
 * Reads a `runvil.config.json` and loads its plugins: each `module` is resolved from the
 * file's directory (a relative path, or a package in `node_modules`) and imported, and its
 * plugin export is picked (`export`, else the default export, else the only plugin export).
 * Resolves with the HostOptions for `createHost`; rejects with a HostConfigError whose message
 * names `file` (as given) and the key path. A module that cannot be resolved but is one of
 * `options.builtins` is taken from there.
 */
export async function loadHostConfig(
  file: string,
  options: LoadHostConfigOptions = {},
): Promise<HostOptions> {
  let text: string;
  try {
    text = UTF8.decode(readInputFile(file, { what: "a configuration file" }));
  } catch (error) {
    const detail = error instanceof InputFileError ? error.detail : String(error);
    throw new HostConfigError(file, `cannot read the file: ${detail}`, { cause: error });
  }
  const config = parseHostConfig(file, text);
  const dir = dirname(resolve(file));
  const plugins: PluginEntry[] = [];
  for (const entry of config.plugins) {
    plugins.push(await loadPlugin(file, dir, entry, options.builtins));
  }
  return { plugins, services: config.services };
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
