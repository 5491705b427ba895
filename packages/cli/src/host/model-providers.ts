import type { ProviderModuleLoader } from "@runvil/host";
import { aiSdkProviderLoader, defaultModelOf } from "@runvil/plugin-ai-sdk";

type Env = Readonly<Record<string, string | undefined>>;

/** How the CLI's Host gets its model providers, and whether it took the default ones. */
export interface ProviderLoading {
  /** The `providers` loader for loadHostConfig (the AI SDK plugin's). */
  readonly loader: ProviderModuleLoader;
  /**
   * The default model when the Host took the default providers (the configuration names no
   * `providers`): `openai:gpt-5-mini` with OPENAI_API_KEY set, else `anthropic:claude-sonnet-4-5`
   * with ANTHROPIC_API_KEY; undefined otherwise.
   */
  defaultModel(): string | undefined;
}

/**
 * The CLI's model providers (docs/design/providers.md §7): a runvil.config.json's `providers`
 * through `@runvil/plugin-ai-sdk`, and with none configured, OpenAI and Anthropic for the keys
 * set in `env`.
 */
export function providerLoading(env: Env): ProviderLoading {
  const loader = aiSdkProviderLoader(env);
  let defaults = false;
  return {
    loader: {
      builtins: loader.builtins,
      plugin: (entries) => {
        if (entries === undefined) defaults = true;
        return loader.plugin(entries);
      },
    },
    defaultModel: () => (defaults ? defaultModelOf(env) : undefined),
  };
}

/** The loader `runvil test` uses: a file's providers, never the default ones. */
export function scenarioProviderLoader(): ProviderModuleLoader {
  const loader = aiSdkProviderLoader({});
  return {
    builtins: loader.builtins,
    plugin: (entries) => (entries === undefined ? undefined : loader.plugin(entries)),
  };
}
