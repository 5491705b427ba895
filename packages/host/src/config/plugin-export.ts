import type { PluginDefinition } from "@runvil/sdk";

/** Whether a value has a plugin's shape: an object with a string `name` and a `setup` function. */
export function isPluginShaped(value: unknown): value is PluginDefinition<unknown> {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { name?: unknown; setup?: unknown };
  return typeof candidate.name === "string" && typeof candidate.setup === "function";
}

/** The plugin a module provides, or why it provides none. */
export type PluginExport =
  | { readonly ok: true; readonly plugin: PluginDefinition<unknown> }
  | { readonly ok: false; readonly problem: string };

const SHAPE = "an object with a string name and a setup function";

/**
 * Picks the plugin of a module namespace: the export named `exportName` when given; else the
 * default export when it is a plugin; else the only named export that is one.
 */
export function pluginExport(
  namespace: Readonly<Record<string, unknown>>,
  exportName: string | undefined,
  specifier: string,
): PluginExport {
  const quoted = JSON.stringify(specifier);
  if (exportName !== undefined) {
    if (!Object.hasOwn(namespace, exportName)) {
      return { ok: false, problem: `${JSON.stringify(exportName)} is not exported by ${quoted}` };
    }
    const value = namespace[exportName];
    return isPluginShaped(value)
      ? { ok: true, plugin: value }
      : {
          ok: false,
          problem: `${JSON.stringify(exportName)} of ${quoted} is not a plugin (${SHAPE})`,
        };
  }
  const fallback = namespace.default;
  if (isPluginShaped(fallback)) return { ok: true, plugin: fallback };
  const named = Object.keys(namespace)
    .filter((key) => key !== "default" && isPluginShaped(namespace[key]))
    .sort();
  const [only] = named;
  if (named.length === 1 && only !== undefined) {
    return { ok: true, plugin: namespace[only] as PluginDefinition<unknown> };
  }
  if (named.length === 0) return { ok: false, problem: `${quoted} exports no plugin (${SHAPE})` };
  return {
    ok: false,
    problem: `${quoted} exports several plugins (${named.join(", ")}); choose one with "export"`,
  };
}
