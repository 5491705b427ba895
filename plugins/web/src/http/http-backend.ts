import { ToolFailure } from "@runvil/sdk";
import {
  type FetchOptions,
  type ResolvedFetchOptions,
  resolveFetchOptions,
} from "../fetch-options";
import {
  ANY_ADDRESS,
  isRefusedAddress,
  type NetworkPolicy,
  PUBLIC_ADDRESSES,
} from "../network/network-policy";
import type { WebBackend } from "../web-backend";
import { bodyKind, parseContentType } from "./content-type";
import { fetchFailures } from "./fetch-failures";
import { type HttpResponse, httpGet } from "./http-get";
import { pageText } from "./page-text";
import { readCappedChunks } from "./read-body";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const ACCEPT =
  "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,text/*;q=0.8,*/*;q=0.5";

/** The content codings web/fetch undoes (http-get.ts). */
const ACCEPT_ENCODING = "gzip, deflate, br";

/**
 * The real HTTP backend of web/fetch, on node:http: http and https only; every hop's address
 * filtered (public addresses only unless `allowPrivateNetwork`, docs/design/web-pack.md,
 * "Address filtering"); redirects followed by hand up to `maxRedirects`, each hop's URL checked
 * again (a loop fails at once); one time limit for the whole fetch, joined with the call's
 * signal; the body streamed and abandoned past `maxBytes`; HTML turned into readable text, JSON
 * and other text passed through, other content types refused. Every failure is a ToolFailure
 * whose message starts `web_fetch: ` and quotes no text the server wrote.
 * Throws a TypeError when `options` is malformed.
 */
export function createHttpBackend(options?: FetchOptions): WebBackend {
  return httpBackend(resolveFetchOptions(options));
}

/**
 * {@link createHttpBackend} with options already resolved and checked; `policy` replaces the
 * one `allowPrivateNetwork` picks (tests resolve names and allow addresses of their own).
 */
export function httpBackend(options: ResolvedFetchOptions, policy?: NetworkPolicy): WebBackend {
  const network = policy ?? (options.allowPrivateNetwork ? ANY_ADDRESS : PUBLIC_ADDRESSES);
  return { fetchPage: (url, signal) => fetchPage(url, signal, options, network) };
}

async function fetchPage(
  url: string,
  signal: AbortSignal,
  options: ResolvedFetchOptions,
  policy: NetworkPolicy,
): Promise<string> {
  const start = httpUrl(url);
  if (signal.aborted) throw fetchFailures.cancelled(url, signal.reason);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  try {
    const { response, finalUrl } = await follow(url, start, combined, options, policy);
    const type = parseContentType(response.header("content-type") ?? null);
    if (bodyKind(type.mediaType) === "binary") {
      response.discard();
      throw fetchFailures.notText(url, type.mediaType);
    }
    const declaredLength = Number(response.header("content-length") ?? Number.NaN);
    if (declaredLength > options.maxBytes) {
      response.discard();
      throw fetchFailures.tooLarge(url, options.maxBytes);
    }
    const body = await readCappedChunks(response.body, options.maxBytes);
    if (!body.ok) throw fetchFailures.tooLarge(url, options.maxBytes);
    return await pageText(url, finalUrl.href, type, body.bytes);
  } catch (error) {
    if (ToolFailure.isInstance(error)) throw error;
    if (signal.aborted) throw fetchFailures.cancelled(url, signal.reason);
    if (timeout.aborted) throw fetchFailures.timedOut(url, options.timeoutMs);
    throw fetchFailures.unreachable(url, error);
  }
}

/** The url the call gave, parsed; a failure unless it is a valid http or https URL. */
function httpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fetchFailures.invalidUrl(url);
  }
  if (!isHttp(parsed)) throw fetchFailures.badScheme(url);
  return parsed;
}

function isHttp(url: URL): boolean {
  return url.protocol === "http:" || url.protocol === "https:";
}

/** Fetches `start`, following redirects by hand; answers the first non-redirect response. */
async function follow(
  url: string,
  start: URL,
  signal: AbortSignal,
  options: ResolvedFetchOptions,
  policy: NetworkPolicy,
): Promise<{ response: HttpResponse; finalUrl: URL }> {
  const visited = new Set<string>([withoutHash(start)]);
  let current = start;
  for (let redirects = 0; ; redirects++) {
    let response: HttpResponse;
    try {
      response = await httpGet(current, {
        signal,
        policy,
        headers: {
          "user-agent": options.userAgent,
          accept: ACCEPT,
          "accept-encoding": ACCEPT_ENCODING,
        },
      });
    } catch (error) {
      if (!isRefusedAddress(error)) throw error;
      throw redirects === 0
        ? fetchFailures.refusedAddress(url, error)
        : fetchFailures.redirectToRefusedAddress(url, error);
    }
    if (response.status >= 200 && response.status < 300) return { response, finalUrl: current };
    response.discard();
    if (!REDIRECT_STATUSES.has(response.status))
      throw fetchFailures.httpStatus(url, response.status);
    const location = response.header("location");
    if (location === undefined) throw fetchFailures.redirectWithoutLocation(url, response.status);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw fetchFailures.redirectToInvalidUrl(url);
    }
    if (!isHttp(next)) throw fetchFailures.redirectToBadScheme(url);
    const key = withoutHash(next);
    if (visited.has(key)) throw fetchFailures.redirectLoop(url);
    if (redirects >= options.maxRedirects) {
      throw fetchFailures.tooManyRedirects(url, options.maxRedirects);
    }
    visited.add(key);
    current = next;
  }
}

function withoutHash(url: URL): string {
  const copy = new URL(url);
  copy.hash = "";
  return copy.href;
}
