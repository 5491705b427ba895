import { type SearchProvider, type SearchRequest, ToolFailure } from "@runvil/sdk";

/** The web/fetch failure for a url the case's `web.pages` does not have. */
export function noPageMessage(url: string): string {
  return `web_fetch: no page at ${url}`;
}

/** The web/search failure for a query the case's `web.search` does not have. */
export function noResultsMessage(query: string): string {
  return `web_search: no results for "${query}"`;
}

/**
 * The fixture backend of the official web Pack's `web/fetch`: answers a url with its page text
 * from `pages` (a case's `web.pages`), exactly as written; an unknown url throws
 * `ToolFailure("web_fetch: no page at {url}")`. Urls are compared as exact text.
 */
export function fixturePageFetcher(
  pages: Readonly<Record<string, string>>,
): (url: string, signal: AbortSignal) => Promise<string> {
  return (url, signal) => {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (!Object.hasOwn(pages, url)) return Promise.reject(new ToolFailure(noPageMessage(url)));
    return Promise.resolve(pages[url] ?? "");
  };
}

/**
 * The fixture `runvil/search-provider` of a case: answers a query with its results text from
 * `search` (a case's `web.search`), a ready text the web Pack passes through unchanged. Queries
 * are compared as exact text and `limit` is ignored. An unknown query rejects with
 * `ToolFailure('web_search: no results for "{query}"')`, so a prompt that searches for
 * something the case does not script sees a tool failure naming the query.
 */
export class FixtureSearchProvider implements SearchProvider {
  readonly #search: Readonly<Record<string, string>>;
  readonly #queries: string[] = [];

  /** A provider answering from a case's `web.search` (query -> results text). */
  constructor(search: Readonly<Record<string, string>>) {
    this.#search = search;
  }

  /** Every query asked so far, in order. */
  get queries(): readonly string[] {
    return this.#queries;
  }

  search(request: SearchRequest): Promise<string> {
    if (request.signal.aborted) return Promise.reject(request.signal.reason);
    this.#queries.push(request.query);
    if (!Object.hasOwn(this.#search, request.query)) {
      return Promise.reject(new ToolFailure(noResultsMessage(request.query)));
    }
    return Promise.resolve(this.#search[request.query] ?? "");
  }
}
