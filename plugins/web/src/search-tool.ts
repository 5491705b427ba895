import {
  defineTool,
  type JsonObject,
  SEARCH_PROVIDER,
  type SearchProvider,
  type ToolDefinition,
  ToolFailure,
} from "@runvil/sdk";
import { renderSearchResults } from "./search/render-results";

/** The search tool's id. */
export const WEB_SEARCH_TOOL_ID = "web/search";

/** The search tool's description, as the chapter gives it. */
export const WEB_SEARCH_DESCRIPTION =
  "Search the web and return a list of results (title, url, description).";

/** The number of results web/search asks for when the call gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;

/** The most results one web/search call may ask for. */
export const MAX_SEARCH_LIMIT = 20;

/** The search tool's parameter schema: a required string `query` and an optional `limit`. */
export const WEB_SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to search for." },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_SEARCH_LIMIT,
      description: `The most results to return (default ${DEFAULT_SEARCH_LIMIT}).`,
    },
  },
  required: ["query"],
} satisfies JsonObject;

/** `web_search: missing query argument`: the call gave no query, or a blank one. */
export const MISSING_QUERY_MESSAGE = "web_search: missing query argument";

/** The call's limit is not a whole number from 1 to 20. */
export const BAD_LIMIT_MESSAGE = `web_search: limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`;

/** The run has no search provider (the Pack's needs normally keep the tool out of such a run). */
export const NO_SEARCH_PROVIDER_MESSAGE = "web_search: this host provides no search provider";

/** A provider rejection that carries no usable message. */
export const SEARCH_FAILED_MESSAGE = "web_search: the search failed";

/**
 * `web/search`: asks the run's `runvil/search-provider` for `query` (at most `limit` results) and
 * answers a provider's ready text unchanged, or its results rendered by
 * {@link renderSearchResults}; untrusted. A provider's ToolFailure becomes a ToolFailure with its
 * message after `web_search: ` (kept as is when it already starts so); any other rejection is
 * `web_search: the search failed`, the rejection kept as the hidden cause, because only a
 * ToolFailure's message is known to be model-safe (a provider's Error may carry a server's text).
 */
export const searchTool: ToolDefinition = defineTool({
  id: WEB_SEARCH_TOOL_ID,
  description: WEB_SEARCH_DESCRIPTION,
  parameters: WEB_SEARCH_PARAMETERS,
  output: "plain",
  trust: "untrusted",
  async run(args, ctx) {
    const query = queryArgument(args);
    const limit = limitArgument(args);
    const provider: SearchProvider | undefined = ctx.services.get(SEARCH_PROVIDER);
    if (provider === undefined) throw new ToolFailure(NO_SEARCH_PROVIDER_MESSAGE);
    let answer: Awaited<ReturnType<SearchProvider["search"]>>;
    try {
      answer = await provider.search({ query, limit, signal: ctx.signal });
    } catch (error) {
      throw searchFailure(error);
    }
    if (typeof answer === "string") return answer;
    return renderSearchResults(answer.slice(0, limit), query);
  },
});

function queryArgument(args: JsonObject): string {
  const query = args.query;
  if (typeof query !== "string" || query.trim() === "")
    throw new ToolFailure(MISSING_QUERY_MESSAGE);
  return query;
}

function limitArgument(args: JsonObject): number {
  const limit = args.limit;
  if (limit === undefined || limit === null) return DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit))
    throw new ToolFailure(BAD_LIMIT_MESSAGE);
  if (limit < 1 || limit > MAX_SEARCH_LIMIT) throw new ToolFailure(BAD_LIMIT_MESSAGE);
  return limit;
}

function searchFailure(error: unknown): ToolFailure {
  if (!ToolFailure.isInstance(error) || error.message === "") {
    return new ToolFailure(SEARCH_FAILED_MESSAGE, { cause: error });
  }
  if (error.message.startsWith("web_search: ")) return error;
  return new ToolFailure(`web_search: ${error.message}`, { cause: error });
}
