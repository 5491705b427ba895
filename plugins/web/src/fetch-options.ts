/** Limits of the real HTTP backend of web/fetch (the `fetch` options of `webPlugin`). */
export interface FetchOptions {
  /** How long one fetch may take in all, redirects and body included, in ms (default 20,000). */
  readonly timeoutMs?: number;
  /** The most body bytes read (default 8,388,608); a larger page fails. */
  readonly maxBytes?: number;
  /** The most redirects followed (default 5); one more fails. */
  readonly maxRedirects?: number;
  /** The User-Agent header sent (default {@link DEFAULT_USER_AGENT}). */
  readonly userAgent?: string;
  /**
   * Let fetches reach local and private network addresses: loopback, private ranges,
   * link-local and cloud metadata, unique-local IPv6 (default false: public addresses only,
   * docs/design/web-pack.md, "Address filtering"). For a Host that runs trusted prompts against a
   * local development server; never for one that runs untrusted prompts on a server.
   */
  readonly allowPrivateNetwork?: boolean;
}

/** {@link FetchOptions} with every default filled in. */
export type ResolvedFetchOptions = Required<FetchOptions>;

/** The default time limit of one fetch: 20 seconds. */
export const DEFAULT_FETCH_TIMEOUT_MS = 20_000;

/** The default body cap: 8 MiB, the cap json.decode applies too. */
export const DEFAULT_FETCH_MAX_BYTES = 8_388_608;

/** The default number of redirects followed. */
export const DEFAULT_FETCH_MAX_REDIRECTS = 5;

/** The default User-Agent header of web/fetch. */
export const DEFAULT_USER_AGENT = "Mozilla/5.0 (compatible; runvil-web/0; +web/fetch)";

/**
 * Fills in the defaults of `options` and checks it (it may come from a JSON config file).
 * Throws a TypeError naming the first bad key under `path`, such as
 * `options.timeoutMs must be a positive number`.
 */
export function resolveFetchOptions(
  options: FetchOptions | undefined,
  path = "options",
): ResolvedFetchOptions {
  const given: FetchOptions = options ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new TypeError(`${path} must be an object`);
  }
  const timeoutMs = given.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`${path}.timeoutMs must be a positive number`);
  }
  const maxBytes = given.maxBytes ?? DEFAULT_FETCH_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new TypeError(`${path}.maxBytes must be a whole number of bytes, 0 or more`);
  }
  const maxRedirects = given.maxRedirects ?? DEFAULT_FETCH_MAX_REDIRECTS;
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0) {
    throw new TypeError(`${path}.maxRedirects must be a whole number, 0 or more`);
  }
  const userAgent = given.userAgent ?? DEFAULT_USER_AGENT;
  if (typeof userAgent !== "string") throw new TypeError(`${path}.userAgent must be a string`);
  const allowPrivateNetwork = given.allowPrivateNetwork ?? false;
  if (typeof allowPrivateNetwork !== "boolean") {
    throw new TypeError(`${path}.allowPrivateNetwork must be true or false`);
  }
  return { timeoutMs, maxBytes, maxRedirects, userAgent, allowPrivateNetwork };
}
