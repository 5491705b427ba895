import type { RunBudget } from "@runvil/protocol";
import type { PluginDefinition } from "@runvil/sdk";

/**
 * One plugin a Host loads, with its options. A plugin with its own Options type fits as is:
 * `{ plugin: webPlugin, options: { userAgent: "x" } }`.
 */
export interface PluginEntry {
  /** The plugin. */
  readonly plugin: PluginDefinition<never> | PluginDefinition<unknown>;
  /** What the plugin's `setup` receives as its options (undefined: none). */
  readonly options?: unknown;
  /**
   * The directory of the configuration file the entry came from (`loadHostConfig` sets it): the
   * plugin reads it as `api.configDir` to resolve relative paths in its options.
   */
  readonly configDir?: string;
}

/** What a Host is created with. */
export interface HostOptions {
  /** The plugins, set up in this order. */
  readonly plugins: readonly PluginEntry[];
  /**
   * Services by id, lent to every run. They overlay the services plugins provide (an id given
   * here wins); a value of undefined provides nothing.
   */
  readonly services?: Readonly<Record<string, unknown>>;
  /**
   * The catalog id a role that names no `model:` is bound to. Without one, such a role binds
   * only when the catalog holds exactly one model.
   */
  readonly defaultModel?: string;
  /**
   * The budget of every run (`runvil.config.json`'s `budget`): prepare puts it on the run's
   * catalog, and the Engine applies it with the prompt's own, the tighter limit winning
   * (docs/design/budgets.md).
   */
  readonly budget?: RunBudget;
}

/** What one run adds when it is prepared. */
export interface PrepareRunOptions {
  /**
   * Services of this run only (such as the input broker of whoever launched it), overlaid on
   * the Host's: an id given here wins; a value of undefined removes the Host's service.
   */
  readonly services?: Readonly<Record<string, unknown>>;
  /**
   * Catalog ids by role label (`runvil run --model writer=x`, a scenario's `models.bind`): a
   * role listed here is bound to that id whatever its `model:` says. Labels the prompt does not
   * declare are ignored.
   */
  readonly models?: Readonly<Record<string, string>>;
}
