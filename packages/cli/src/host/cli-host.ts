import { dirname } from "node:path";
import { createHost, type Host, type HostOptions, loadHostConfig } from "@runvil/host";
import { findConfigFile } from "./find-config";
import { providerLoading } from "./model-providers";
import { OFFICIAL_MODULES, withOfficialPlugins } from "./official-plugins";

/** Where the CLI's Host comes from for one prompt or scenario file. */
export interface CliHostOptions {
  /** The prompt (or scenario) file; the config lookup starts in its directory. */
  readonly promptFile: string;
  /** `--config FILE`: use this configuration instead of looking one up. */
  readonly configFile?: string;
}

/** A Host ready for prepare, or why there is none. */
export type CliHostResult =
  | { readonly ok: true; readonly host: Host; readonly configFile: string | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * The configuration file that applies to a prompt: `configFile` when given, else the nearest
 * runvil.config.json from the prompt's directory upward (see findConfigFile), else undefined.
 */
export function configFileFor(options: CliHostOptions): Promise<string | undefined> {
  if (options.configFile !== undefined) return Promise.resolve(options.configFile);
  return findConfigFile(dirname(options.promptFile));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sets up the Host of a configuration file (undefined: none): the official plugins plus the
 * file's plugins, services and model providers, or the default providers (OpenAI, Anthropic)
 * when it names none and their keys are set (docs/design/cli.md). A configuration or plugin
 * problem gives `ok: false` with a message naming the file.
 */
export async function hostForConfig(configFile: string | undefined): Promise<CliHostResult> {
  try {
    const loading = providerLoading(process.env);
    let config: HostOptions;
    if (configFile === undefined) {
      const defaults = await loading.loader.plugin(undefined);
      config = { plugins: defaults === undefined ? [] : [defaults] };
    } else {
      config = await loadHostConfig(configFile, {
        builtins: OFFICIAL_MODULES,
        providers: loading.loader,
      });
    }
    const defaultModel = config.defaultModel ?? loading.defaultModel();
    const host = await createHost({
      ...config,
      plugins: withOfficialPlugins(config.plugins),
      ...(defaultModel === undefined ? {} : { defaultModel }),
    });
    return { ok: true, host, configFile };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/** Sets up the Host for one prompt: {@link hostForConfig} of {@link configFileFor}. */
export async function loadCliHost(options: CliHostOptions): Promise<CliHostResult> {
  return hostForConfig(await configFileFor(options));
}

/** Caches one Host per configuration file, for commands that handle many files. */
export class CliHostCache {
  readonly #hosts = new Map<string, Promise<CliHostResult>>();

  /** The Host for `options`, set up once per configuration file (and once without one). */
  async get(options: CliHostOptions): Promise<CliHostResult> {
    const configFile = await configFileFor(options);
    const key = configFile ?? "";
    let host = this.#hosts.get(key);
    if (host === undefined) {
      host = hostForConfig(configFile);
      this.#hosts.set(key, host);
    }
    return host;
  }

  /** Closes every Host set up so far (see `host.close()`); the cache is empty after. */
  async close(): Promise<void> {
    const hosts = [...this.#hosts.values()];
    this.#hosts.clear();
    await Promise.all(
      hosts.map(async (pending) => {
        const loaded = await pending;
        if (loaded.ok) await loaded.host.close();
      }),
    );
  }
}
