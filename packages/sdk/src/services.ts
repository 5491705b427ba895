/**
 * Services: what the Host lends a run and its tool calls, named by service ids such as
 * `runvil/input-broker`. A Pack lists the ids it needs; a Pack whose service the run lacks
 * cannot serve (`- {pack} needs {service}, and the environment provides none`).
 */

/** The id of the operator input broker service. */
export const INPUT_BROKER = "runvil/input-broker";

/** The id of the web search provider service. */
export const SEARCH_PROVIDER = "runvil/search-provider";

/** One question to the operator. */
export interface InputRequest {
  /** A text to show the operator before the wait, or undefined for none. */
  readonly prompt?: string;
  /** Aborted when the wait must end (the run was cancelled or ended). */
  readonly signal: AbortSignal;
}

/**
 * `runvil/input-broker`: waits for the operator's next message. Resolves with its text;
 * rejects with an Error whose message is model-safe (such as `the operator's window closed`),
 * keeping any deeper cause in `cause`. The ask tool shows that message as its failure, so it
 * follows the ToolFailure rule: the broker's own words, never text it did not write.
 */
export interface InputBroker {
  ask(request: InputRequest): Promise<string>;
}

/** One web search result. */
export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly description: string;
}

/** One web search. */
export interface SearchRequest {
  /** The query text. */
  readonly query: string;
  /** The most results wanted. */
  readonly limit: number;
  /** Aborted when the search must end. */
  readonly signal: AbortSignal;
}

/**
 * `runvil/search-provider`: runs a web search. Resolves with the results, best first, or with
 * a ready text (a provider that already renders its results). Rejects with a ToolFailure whose
 * message is model-safe (the ToolFailure rule: no text the search service wrote); web/search
 * shows it after `web_search: `, and shows any other rejection as `web_search: the search
 * failed`.
 */
export interface SearchProvider {
  search(request: SearchRequest): Promise<readonly SearchResult[] | string>;
}

/** The service types the SDK knows, by id. Other ids are plugins' own (`unknown`). */
export interface KnownServices {
  "runvil/input-broker": InputBroker;
  "runvil/search-provider": SearchProvider;
}

/** The services a run or a tool call can reach. */
export interface Services {
  /** Whether the service `id` is provided. */
  has(id: string): boolean;
  /** The service `id`, or undefined when it is not provided. */
  get<K extends keyof KnownServices>(id: K): KnownServices[K] | undefined;
  get(id: string): unknown;
}
