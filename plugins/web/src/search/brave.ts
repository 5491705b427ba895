import { definePlugin, SEARCH_PROVIDER, type SearchProvider, type SearchResult } from "@runvil/sdk";
import { checkTimeout, httpUrlOption, optionsObject, requiredString } from "../plugin-options";
import { arrayAt, commonStatusReason, getJson, stringField } from "./get-json";
import { plainText } from "./plain-text";

/** The Brave Search web API endpoint. */
export const BRAVE_SEARCH_ENDPOINT = "https://api.search.brave.com/res/v1/web/search";

/** The options of the Brave Search provider. */
export interface BraveSearchOptions {
  /** The Brave Search API subscription token. */
  readonly apiKey: string;
  /** The API endpoint (default {@link BRAVE_SEARCH_ENDPOINT}); for proxies and tests. */
  readonly endpoint?: string;
  /** How long one search may take, in ms (default 20,000). */
  readonly timeoutMs?: number;
}

/**
 * A `runvil/search-provider` backed by the Brave Search API: `GET {endpoint}?q={query}&count={limit}`
 * with the key in `X-Subscription-Token`; its `web.results` mapped to {title, url, description}
 * with the highlighting tags stripped. Throws a TypeError naming the key when `options` is
 * malformed. The key never appears in a failure message.
 */
export function createBraveSearchProvider(options: BraveSearchOptions): SearchProvider {
  return braveProvider(options);
}

function braveProvider(options: unknown): SearchProvider {
  const given = optionsObject(options);
  const apiKey = requiredString(given, "apiKey", "a Brave Search API key");
  const endpointText =
    given.endpoint === undefined
      ? BRAVE_SEARCH_ENDPOINT
      : requiredString(given, "endpoint", "the API endpoint URL");
  const endpoint = httpUrlOption(endpointText, "endpoint");
  const timeoutMs = checkTimeout(given.timeoutMs);
  return {
    async search(request) {
      const url = new URL(endpoint);
      url.searchParams.set("q", request.query);
      url.searchParams.set("count", String(request.limit));
      const answer = await getJson({
        url,
        headers: { accept: "application/json", "x-subscription-token": apiKey },
        signal: request.signal,
        timeoutMs,
        statusReason: commonStatusReason,
      });
      return braveResults(answer).slice(0, request.limit);
    },
  };
}

/** The results of a Brave answer (`{ web: { results: [{ title, url, description }] } }`). */
function braveResults(answer: unknown): SearchResult[] {
  return arrayAt(answer, ["web", "results"])
    .map((result) => ({
      title: plainText(stringField(result, "title")),
      url: stringField(result, "url"),
      description: plainText(stringField(result, "description")),
    }))
    .filter((result) => result.url !== "");
}

/**
 * A plugin that provides `runvil/search-provider` from the Brave Search API; options
 * `{ "apiKey": "..." }` (see {@link BraveSearchOptions}).
 */
export const braveSearchPlugin = definePlugin<BraveSearchOptions>({
  name: "@runvil/plugin-web/brave",
  setup(api, options) {
    api.provideService(SEARCH_PROVIDER, braveProvider(options));
  },
});
