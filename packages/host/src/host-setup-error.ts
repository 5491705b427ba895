/**
 * Why `createHost` rejected: a plugin that is not a plugin, a plugin whose setup threw, a Pack
 * with an invalid vendor or name or shape, a fully qualified name added twice, a service id
 * provided twice. `plugin` names the plugin (its `name`, or `plugins[i]` when the entry has no
 * usable name); the message starts with `plugin {plugin}: `.
 */
export class HostSetupError extends Error {
  /** The plugin at fault. */
  readonly plugin: string;

  constructor(plugin: string, problem: string, options?: { cause?: unknown }) {
    super(`plugin ${plugin}: ${problem}`, options);
    this.name = "HostSetupError";
    this.plugin = plugin;
  }
}
