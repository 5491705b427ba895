import { createRequire } from "node:module";
import { ToolFailure } from "@runvil/sdk";
import { duration } from "../duration";

/** `web_fetch: missing url argument`: the call gave no url, or an empty one (the chapter's text). */
export const MISSING_URL_MESSAGE = "web_fetch: missing url argument";

/** The call's url is not a string (the Harness's schema check normally refuses it first). */
export const URL_NOT_STRING_MESSAGE = "web_fetch: the url argument must be a string";

/**
 * Every web/fetch failure, with its exact model-safe message. `url` is the url the call gave;
 * nothing the server wrote (a Location, a content type, a reason phrase, a body) is ever quoted:
 * a failure's message reaches Lua outside the untrusted envelope (tools chapter, "A bound tool
 * fails in a script call"), so it must carry no untrusted bytes (docs/design/web-pack.md).
 */
export const fetchFailures = {
  invalidUrl: (url: string) => new ToolFailure(`web_fetch: not a valid URL: ${url}`),
  badScheme: (url: string) =>
    new ToolFailure(`web_fetch: cannot fetch ${url}: only http and https URLs can be fetched`),
  httpStatus: (url: string, status: number) =>
    new ToolFailure(`web_fetch: the page at ${url} answered HTTP ${statusLine(status)}`),
  redirectWithoutLocation: (url: string, status: number) =>
    new ToolFailure(
      `web_fetch: the page at ${url} answered HTTP ${statusLine(status)} without a Location header`,
    ),
  redirectToInvalidUrl: (url: string) =>
    new ToolFailure(`web_fetch: the page at ${url} redirected to an invalid URL`),
  redirectToBadScheme: (url: string) =>
    new ToolFailure(
      `web_fetch: the page at ${url} redirected to a URL that is not an http or https URL`,
    ),
  refusedAddress: (url: string, cause: unknown) =>
    new ToolFailure(
      `web_fetch: cannot fetch ${url}: its address is on a local or private network, which web/fetch does not reach`,
      { cause },
    ),
  redirectToRefusedAddress: (url: string, cause: unknown) =>
    new ToolFailure(
      `web_fetch: the page at ${url} redirected to an address on a local or private network, which web/fetch does not reach`,
      { cause },
    ),
  redirectLoop: (url: string) =>
    new ToolFailure(`web_fetch: the page at ${url} redirects in a loop`),
  tooManyRedirects: (url: string, maxRedirects: number) =>
    new ToolFailure(
      `web_fetch: the page at ${url} redirected more than ${maxRedirects} ${plural(maxRedirects, "time")}`,
    ),
  tooLarge: (url: string, maxBytes: number) =>
    new ToolFailure(`web_fetch: the page at ${url} is larger than ${maxBytes} bytes`),
  notText: (url: string, mediaType: string) =>
    new ToolFailure(
      WELL_KNOWN_BINARY_TYPES.has(mediaType)
        ? `web_fetch: the page at ${url} has content type ${mediaType}, which is not text`
        : `web_fetch: the page at ${url} has a content type that is not text`,
    ),
  binaryWithoutType: (url: string) =>
    new ToolFailure(`web_fetch: the page at ${url} has no content type and is not text`),
  timedOut: (url: string, timeoutMs: number) =>
    new ToolFailure(`web_fetch: the page at ${url} did not load within ${duration(timeoutMs)}`),
  cancelled: (url: string, cause: unknown) =>
    new ToolFailure(`web_fetch: the fetch of ${url} was cancelled`, { cause }),
  unreachable: (url: string, cause: unknown) => {
    const reason = networkReason(cause);
    const text = reason === undefined ? "" : `: ${reason}`;
    return new ToolFailure(`web_fetch: could not reach ${url}${text}`, { cause });
  },
};

/**
 * The binary media types a failure names. A content type is the server's text, so a failure
 * names it only when it is one of these, our own list; any other is "a content type".
 */
const WELL_KNOWN_BINARY_TYPES = new Set([
  "application/gzip",
  "application/msword",
  "application/octet-stream",
  "application/pdf",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.rar",
  "application/wasm",
  "application/x-7z-compressed",
  "application/x-gzip",
  "application/x-tar",
  "application/zip",
  "audio/aac",
  "audio/flac",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/webm",
  "font/otf",
  "font/ttf",
  "font/woff",
  "font/woff2",
  "image/avif",
  "image/bmp",
  "image/gif",
  "image/heic",
  "image/jpeg",
  "image/png",
  "image/tiff",
  "image/vnd.microsoft.icon",
  "image/webp",
  "image/x-icon",
  "video/mp4",
  "video/ogg",
  "video/quicktime",
  "video/webm",
]);

/** Node's table of standard reason phrases, loaded at the first failed status. */
let reasonPhrases: Readonly<Record<number, string | undefined>> | undefined;

/**
 * `node:http` is required only when a page answers an error status: importing it at start-up
 * loads Node's whole HTTP stack (net, streams, the parser), several milliseconds of every
 * `runvil run` that never sees such a page (docs/design/performance.md).
 */
function standardPhrases(): Readonly<Record<number, string | undefined>> {
  if (reasonPhrases === undefined) {
    const http = createRequire(import.meta.url)("node:http") as typeof import("node:http");
    reasonPhrases = http.STATUS_CODES;
  }
  return reasonPhrases;
}

/** `404 Not Found`: the status and its standard reason phrase (never the server's own text). */
function statusLine(status: number): string {
  const phrase = standardPhrases()[status];
  return phrase === undefined ? String(status) : `${status} ${phrase}`;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

const TLS_CODES = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** A short, safe reason for a network error, read from the error codes in its cause chain. */
function networkReason(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name could not be resolved";
    if (code === "ECONNREFUSED") return "the connection was refused";
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") {
      return "the connection was closed unexpectedly";
    }
    if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "the host is unreachable";
    if (typeof code === "string" && TLS_CODES.has(code)) {
      return "its TLS certificate could not be verified";
    }
    if (code === "ERUNVIL_BAD_PORT") return "fetching from that port is not allowed";
    current = current.cause;
  }
  return undefined;
}
