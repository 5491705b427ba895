import { definePlugin, type PluginDefinition } from "@runvil/sdk";
import { type AiSdkProviderOptions, createAiSdkProvider } from "./ai-sdk-provider";
import { DEFAULT_MODELS } from "./known-models";
import { type ProviderEntry, providerOptionsOf } from "./provider-config";

/** The options of {@link aiSdkPlugin}: the providers it adds to the Host's catalog. */
export interface AiSdkPluginOptions {
  readonly providers: readonly AiSdkProviderOptions[];
}

/** The plugin adding AI SDK model providers (built by {@link aiSdkProviderLoader} from a config). */
export const aiSdkPlugin: PluginDefinition<AiSdkPluginOptions> = definePlugin<AiSdkPluginOptions>({
  name: "@runvil/plugin-ai-sdk",
  setup(api, options) {
    for (const provider of options?.providers ?? [])
      api.addModelProvider(createAiSdkProvider(provider));
  },
});

type Namespace = Readonly<Record<string, unknown>>;

/**
 * The provider modules this package carries, loaded on first use: a runvil.config.json may
 * name them without installing them next to the file.
 */
export const BUNDLED_PROVIDER_MODULES: Readonly<Record<string, () => Promise<Namespace>>> = {
  "@ai-sdk/openai": () => import("@ai-sdk/openai"),
  "@ai-sdk/anthropic": () => import("@ai-sdk/anthropic"),
  "@ai-sdk/openai-compatible": () => import("@ai-sdk/openai-compatible"),
};

type Env = Readonly<Record<string, string | undefined>>;

/** The plugin entry a Host loads: {@link aiSdkPlugin} with its providers. */
export interface AiSdkPluginEntry {
  readonly plugin: PluginDefinition<AiSdkPluginOptions>;
  readonly options: AiSdkPluginOptions;
}

/**
 * The default providers (no `providers` in the configuration): OpenAI when OPENAI_API_KEY is
 * set, Anthropic when ANTHROPIC_API_KEY is set, with their built-in model lists; undefined when
 * neither is.
 */
export async function defaultProviders(
  env: Env = process.env,
): Promise<AiSdkPluginEntry | undefined> {
  const entries: ProviderEntry[] = [];
  for (const [name, module, variable] of [
    ["openai", "@ai-sdk/openai", "OPENAI_API_KEY"],
    ["anthropic", "@ai-sdk/anthropic", "ANTHROPIC_API_KEY"],
  ] as const) {
    const key = env[variable];
    if (key === undefined || key === "") continue;
    const load = BUNDLED_PROVIDER_MODULES[module] as () => Promise<Namespace>;
    entries.push({ key: `providers.${name}`, name, module, namespace: await load(), settings: {} });
  }
  if (entries.length === 0) return undefined;
  return {
    plugin: aiSdkPlugin,
    options: { providers: entries.map((e) => providerOptionsOf(e, env)) },
  };
}

/**
 * The default Host's default model: `openai:gpt-5-mini` when OPENAI_API_KEY is set, else
 * `anthropic:claude-sonnet-4-5` when ANTHROPIC_API_KEY is, else undefined.
 */
export function defaultModelOf(env: Env = process.env): string | undefined {
  return DEFAULT_MODELS.find(({ env: variable }) => (env[variable] ?? "") !== "")?.model;
}

/**
 * The Host's `providers` loader (`loadHostConfig(file, { providers })`): the modules this
 * package carries as builtins, and a plugin entry of {@link aiSdkPlugin} with one provider per
 * entry (checked by {@link providerOptionsOf}), or {@link defaultProviders} when the file names
 * no `providers`.
 */
export function aiSdkProviderLoader(env: Env = process.env): {
  readonly builtins: Readonly<Record<string, () => Promise<Namespace>>>;
  readonly plugin: (
    entries: readonly ProviderEntry[] | undefined,
  ) => Promise<AiSdkPluginEntry | undefined>;
} {
  return {
    builtins: BUNDLED_PROVIDER_MODULES,
    plugin: async (entries) => {
      if (entries === undefined) return defaultProviders(env);
      return {
        plugin: aiSdkPlugin,
        options: { providers: entries.map((e) => providerOptionsOf(e, env)) },
      };
    },
  };
}
