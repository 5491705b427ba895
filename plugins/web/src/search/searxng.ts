import { definePlugin, SEARCH_PROVIDER, type SearchProvider, type SearchResult } from "@runvil/sdk";
import { checkTimeout, httpUrlOption, optionsObject, requiredString } from "../plugin-options";
import { arrayAt, commonStatusReason, getJson, stringField } from "./get-json";

/** The options of the SearXNG search provider. */
export interface SearxngSearchOptions {
  /** The instance's base URL, such as `http://localhost:8888` (its JSON format must be enabled). */
  readonly url: string;
  /** How long one search may take, in ms (default 20,000). */
  readonly timeoutMs?: number;
}

/**
 * A `runvil/search-provider` backed by a SearXNG instance: `GET {url}/search?q={query}&format=json`,
 * its `results` mapped to {title, url, description: content}, at most `limit` of them.
 * Throws a TypeError naming the key when `options` is malformed.
 */
export function createSearxngSearchProvider(options: SearxngSearchOptions): SearchProvider {
  return searxngProvider(options);
}

function searxngProvider(options: unknown): SearchProvider {
  const given = optionsObject(options);
  const url = requiredString(given, "url", "the SearXNG instance's URL");
  const base = httpUrlOption(url, "url");
  if (!base.pathname.endsWith("/")) base.pathname = `${base.pathname}/`;
  const timeoutMs = checkTimeout(given.timeoutMs);
  return {
    async search(request) {
      const endpoint = new URL("search", base);
      endpoint.searchParams.set("q", request.query);
      endpoint.searchParams.set("format", "json");
      const answer = await getJson({
        url: endpoint,
        headers: { accept: "application/json" },
        signal: request.signal,
        timeoutMs,
        statusReason: (status) =>
          status === 403
            ? "the search service refused JSON output (HTTP 403)"
            : commonStatusReason(status),
      });
      return searxngResults(answer).slice(0, request.limit);
    },
  };
}

/** The results of a SearXNG JSON answer (`{ results: [{ title, url, content }] }`). */
function searxngResults(answer: unknown): SearchResult[] {
  return arrayAt(answer, ["results"])
    .map((result) => ({
      title: stringField(result, "title"),
      url: stringField(result, "url"),
      description: stringField(result, "content"),
    }))
    .filter((result) => result.url !== "");
}

/**
 * A plugin that provides `runvil/search-provider` from a SearXNG instance; options
 * `{ "url": "http://localhost:8888" }` (see {@link SearxngSearchOptions}).
 */
export const searxngSearchPlugin = definePlugin<SearxngSearchOptions>({
  name: "@runvil/plugin-web/searxng",
  setup(api, options) {
    api.provideService(SEARCH_PROVIDER, searxngProvider(options));
  },
});
