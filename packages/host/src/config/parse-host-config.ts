import type { RunBudget } from "@runvil/protocol";
import { readBudgetConfig } from "./budget-config";
import { HostConfigError } from "./host-config-error";

/** The name of the Host configuration file. */
export const HOST_CONFIG_FILE = "runvil.config.json";

/** One plugin entry of the configuration file, checked. */
export interface PluginConfig {
  /** The entry's key path, such as `plugins[1]` (for messages). */
  readonly key: string;
  /** A package name (`@runvil/plugin-web`) or a path relative to the file (`./plugin.js`). */
  readonly module: string;
  /** The named export to use, or undefined for the default one (or the only plugin export). */
  readonly export: string | undefined;
  /** The plugin's options, as written (any JSON value), or undefined. */
  readonly options: unknown;
}

/** One model provider entry of the configuration file (`providers.{name}`), its module checked. */
export interface ProviderConfig {
  /** The entry's key path, such as `providers.local` (for messages). */
  readonly key: string;
  /** The provider's name: the entry's key. */
  readonly name: string;
  /** A package name (`@ai-sdk/openai`) or a path relative to the file. */
  readonly module: string;
  /** The entry's other keys, as written: the provider plugin checks them. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** The configuration file, checked. */
export interface HostConfig {
  readonly plugins: readonly PluginConfig[];
  readonly services: Readonly<Record<string, unknown>>;
  /** The `providers` entries in the file's order, or undefined when it has no `providers` key. */
  readonly providers?: readonly ProviderConfig[];
  /** `defaultModel`: the catalog id a role without `model:` binds to. */
  readonly defaultModel?: string;
  /**
   * Where `runvil run` records runs (docs/design/journal.md): a SQLite file relative to the
   * configuration file, a PostgreSQL URL, or `false` (record nothing by default); undefined:
   * `.runvil/runs.db` beside the file.
   */
  readonly journal?: string | false;
  /** The run budget (`budget`), when the file sets one (docs/design/budgets.md). */
  readonly budget?: RunBudget;
  /**
   * `otel`: where `runvil run` sends each run's trace (docs/design/otel.md), when the file sets
   * it; `--otel URL` wins over it.
   */
  readonly otel?: OtelConfig;
}

/** The `otel` key of the configuration file, checked. */
export interface OtelConfig {
  /** An OTLP/HTTP traces endpoint: an http(s) URL such as `http://localhost:4318/v1/traces`. */
  readonly endpoint: string;
}

const TOP_KEYS = ["plugins", "services", "providers", "defaultModel", "journal", "budget", "otel"];
const PLUGIN_KEYS = ["module", "export", "options"];
const OTEL_KEYS = ["endpoint"];
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function keyPath(parent: string, key: string): string {
  const step = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
  return parent === "" ? step : `${parent}.${step}`;
}

function checkKeys(
  file: string,
  record: Record<string, unknown>,
  parent: string,
  known: readonly string[],
): void {
  for (const key of Object.keys(record)) {
    if (known.includes(key) || (parent === "" && key === "$schema")) continue;
    throw new HostConfigError(
      file,
      `${keyPath(parent, key)} is not a known key (known: ${known.join(", ")})`,
    );
  }
}

function optionalString(file: string, value: unknown, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new HostConfigError(file, `${key} must be a string`);
  if (value === "") throw new HostConfigError(file, `${key} must not be empty`);
  return value;
}

function pluginConfig(file: string, value: unknown, index: number): PluginConfig {
  const key = `plugins[${index}]`;
  if (!isRecord(value)) throw new HostConfigError(file, `${key} must be an object`);
  checkKeys(file, value, key, PLUGIN_KEYS);
  if (value.module === undefined) throw new HostConfigError(file, `${key}.module is required`);
  const module = optionalString(file, value.module, `${key}.module`) ?? "";
  const exported = optionalString(file, value.export, `${key}.export`);
  return { key, module, export: exported, options: value.options };
}

function providerConfigs(file: string, value: unknown): ProviderConfig[] {
  if (!isRecord(value)) throw new HostConfigError(file, "providers must be an object");
  return Object.entries(value).map(([name, entry]) => {
    const key = keyPath("providers", name);
    if (!isRecord(entry)) throw new HostConfigError(file, `${key} must be an object`);
    if (entry.module === undefined) {
      throw new HostConfigError(file, `${key}.module is required (such as "@ai-sdk/openai")`);
    }
    const module = optionalString(file, entry.module, `${key}.module`) ?? "";
    const { module: _, ...settings } = entry;
    return { key, name, module, settings };
  });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function otelConfig(file: string, value: unknown): OtelConfig {
  if (!isRecord(value)) throw new HostConfigError(file, "otel must be an object");
  checkKeys(file, value, "otel", OTEL_KEYS);
  const { endpoint } = value;
  if (endpoint === undefined) throw new HostConfigError(file, "otel.endpoint is required");
  if (typeof endpoint !== "string" || !isHttpUrl(endpoint)) {
    const got = typeof endpoint === "string" ? endpoint : JSON.stringify(endpoint);
    throw new HostConfigError(
      file,
      `otel.endpoint must be the http(s) URL of an OTLP traces endpoint (such as http://localhost:4318/v1/traces), got ${got}`,
    );
  }
  return { endpoint };
}

/**
 * Checks the text of a configuration file: a JSON object with `plugins` (required: an array of
 * `{ module, export?, options? }`), `services` (optional: an object), `providers` (optional: an
 * object of `{ module, ... }` by provider name), `defaultModel` (optional: a string), `journal`,
 * `budget` (optional: budget-config.ts) and `otel` (optional: `{ endpoint }`, an http(s) URL),
 * and no other key but `$schema`. Throws a HostConfigError naming
 * `file` and the key path.
 */
export function parseHostConfig(file: string, text: string): HostConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HostConfigError(file, `not valid JSON: ${detail}`, { cause: error });
  }
  if (!isRecord(data)) throw new HostConfigError(file, "the configuration must be a JSON object");
  checkKeys(file, data, "", TOP_KEYS);
  if (data.plugins === undefined) throw new HostConfigError(file, "plugins is required");
  if (!Array.isArray(data.plugins)) throw new HostConfigError(file, "plugins must be an array");
  const plugins = data.plugins.map((entry, index) => pluginConfig(file, entry, index));
  const services = data.services ?? {};
  if (!isRecord(services)) throw new HostConfigError(file, "services must be an object");
  const defaultModel = optionalString(file, data.defaultModel, "defaultModel");
  const journal = data.journal;
  if (
    journal !== undefined &&
    journal !== false &&
    (typeof journal !== "string" || journal === "")
  ) {
    throw new HostConfigError(file, "journal must be a file path, a postgres:// URL or false");
  }
  return {
    plugins,
    services,
    ...(data.providers === undefined ? {} : { providers: providerConfigs(file, data.providers) }),
    ...(defaultModel === undefined ? {} : { defaultModel }),
    ...(journal === undefined ? {} : { journal }),
    ...(data.budget === undefined ? {} : { budget: readBudgetConfig(file, data.budget) }),
    ...(data.otel === undefined ? {} : { otel: otelConfig(file, data.otel) }),
  };
}
