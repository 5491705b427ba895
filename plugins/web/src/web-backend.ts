/**
 * The layer web/fetch reads pages through. The default is real HTTP ({@link createHttpBackend});
 * tests and the testkit swap in fixtures. `fetchPage` resolves with the page's readable text and
 * rejects with a ToolFailure whose message starts `web_fetch: ` (anything else becomes the
 * generic `web_fetch: the tool failed`).
 */
export interface WebBackend {
  /** Fetches `url` and answers its readable text; stops when `signal` aborts. */
  fetchPage(url: string, signal: AbortSignal): Promise<string>;
}
