import { definePlugin } from "@runvil/sdk";
import { type FetchOptions, resolveFetchOptions } from "./fetch-options";
import { httpBackend } from "./http/http-backend";
import { createWebPack } from "./pack";
import { optionsObject } from "./plugin-options";

/** The options of {@link webPlugin} (its `options` in runvil.config.json). */
export interface WebPluginOptions {
  /** Limits of web/fetch's HTTP requests. */
  readonly fetch?: FetchOptions;
}

/**
 * The plugin that adds runvil/web to a Host, with web/fetch on real HTTP. It provides no search
 * provider: add one with `searxngSearchPlugin` or `braveSearchPlugin` (or your own), else the
 * Pack is unavailable (`web needs runvil/search-provider, ...`). Malformed options throw a
 * TypeError naming the key, such as `options.fetch.timeoutMs must be a positive number`.
 */
export const webPlugin = definePlugin<WebPluginOptions>({
  name: "@runvil/plugin-web",
  setup(api, options) {
    const given = options === undefined ? {} : optionsObject(options);
    const fetchOptions = resolveFetchOptions(
      given.fetch as FetchOptions | undefined,
      "options.fetch",
    );
    api.addPack(createWebPack(httpBackend(fetchOptions)));
  },
});
