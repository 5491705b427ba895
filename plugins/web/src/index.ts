export {
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_MAX_REDIRECTS,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type FetchOptions,
} from "./fetch-options";
export { createHttpBackend } from "./http/http-backend";
export { createWebPack } from "./pack";
export { type WebPluginOptions, webPlugin, webPlugin as default } from "./plugin";
export { DEFAULT_SEARCH_TIMEOUT_MS } from "./plugin-options";
export {
  BRAVE_SEARCH_ENDPOINT,
  type BraveSearchOptions,
  braveSearchPlugin,
  createBraveSearchProvider,
} from "./search/brave";
export {
  createSearxngSearchProvider,
  type SearxngSearchOptions,
  searxngSearchPlugin,
} from "./search/searxng";
export type { WebBackend } from "./web-backend";
