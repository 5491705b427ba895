export {
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_MAX_REDIRECTS,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type FetchOptions,
} from "./fetch-options";
export {
  createFetchTool,
  WEB_FETCH_DESCRIPTION,
  WEB_FETCH_PARAMETERS,
  WEB_FETCH_TOOL_ID,
} from "./fetch-tool";
export { MISSING_URL_MESSAGE, URL_NOT_STRING_MESSAGE } from "./http/fetch-failures";
export { createHttpBackend } from "./http/http-backend";
export { createWebPack, WEB_PACK_DESCRIPTION } from "./pack";
export { type WebPluginOptions, webPlugin, webPlugin as default } from "./plugin";
export { DEFAULT_SEARCH_TIMEOUT_MS } from "./plugin-options";
export {
  BRAVE_SEARCH_ENDPOINT,
  type BraveSearchOptions,
  braveSearchPlugin,
  createBraveSearchProvider,
} from "./search/brave";
export { renderSearchResults } from "./search/render-results";
export {
  createSearxngSearchProvider,
  type SearxngSearchOptions,
  searxngSearchPlugin,
} from "./search/searxng";
export {
  BAD_LIMIT_MESSAGE,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  MISSING_QUERY_MESSAGE,
  NO_SEARCH_PROVIDER_MESSAGE,
  SEARCH_FAILED_MESSAGE,
  searchTool,
  WEB_SEARCH_DESCRIPTION,
  WEB_SEARCH_PARAMETERS,
  WEB_SEARCH_TOOL_ID,
} from "./search-tool";
export type { WebBackend } from "./web-backend";
