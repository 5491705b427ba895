import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import { BadPortError, isBadPort } from "../network/bad-ports";
import {
  literalAddress,
  type NetworkPolicy,
  policyLookup,
  RefusedAddressError,
} from "../network/network-policy";

/** One HTTP response, its body decoded. */
export interface HttpResponse {
  /** The status code. */
  readonly status: number;
  /** A response header's value (repeated headers joined with `, `), or undefined. */
  header(name: string): string | undefined;
  /** The body after its content codings (gzip, deflate, br) are undone. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Drops the body unread and closes the connection. */
  discard(): void;
}

/** How one GET is sent. */
export interface HttpGetOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Which addresses the request may connect to. */
  readonly policy: NetworkPolicy;
}

interface NodeModules {
  readonly http: typeof import("node:http");
  readonly https: typeof import("node:https");
  readonly net: typeof import("node:net");
  readonly stream: typeof import("node:stream");
  readonly zlib: typeof import("node:zlib");
}

let modules: NodeModules | undefined;

/**
 * Node's HTTP stack loads at the first fetch, not at start-up: importing it costs several
 * milliseconds of every `runvil run` that fetches nothing (docs/design/performance.md).
 */
function nodeModules(): NodeModules {
  if (modules === undefined) {
    const require = createRequire(import.meta.url);
    modules = {
      http: require("node:http") as typeof import("node:http"),
      https: require("node:https") as typeof import("node:https"),
      net: require("node:net") as typeof import("node:net"),
      stream: require("node:stream") as typeof import("node:stream"),
      zlib: require("node:zlib") as typeof import("node:zlib"),
    };
  }
  return modules;
}

/**
 * GETs `url` (http or https) on node:http, one connection per request (no pooled socket is
 * reused across policies), with the request's address checked by `policy`: an IP literal before
 * anything is sent, a host name in the connection's own lookup (network-policy.ts), so a refused
 * address is never connected to. Rejects with a {@link RefusedAddressError} for a refused
 * address, a {@link BadPortError} for a port fetch never uses, with the request's error
 * otherwise (the signal's abort included). Redirects are not followed.
 */
export function httpGet(url: URL, options: HttpGetOptions): Promise<HttpResponse> {
  const { http, https, net } = nodeModules();
  if (isBadPort(url)) return Promise.reject(new BadPortError());
  const literal = literalAddress(url, net.isIP);
  if (literal !== undefined && !options.policy.allows(literal)) {
    return Promise.reject(new RefusedAddressError());
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: "GET",
      headers: { ...options.headers },
      signal: options.signal,
      agent: false,
      lookup: policyLookup(options.policy),
    });
    // Kept for the whole request: an error after the response (a reset mid-body) must find a
    // listener (the body's reader sees it as its stream's error).
    request.on("error", reject);
    request.once("response", (response) => resolve(wrap(response)));
    request.end();
  });
}

function wrap(response: IncomingMessage): HttpResponse {
  // A body that breaks off before it is read must not be an unhandled 'error': the reader gets it
  // from the destroyed stream.
  response.on("error", () => {});
  return {
    status: response.statusCode ?? 0,
    header(name) {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    body: decoded(response),
    discard: () => response.destroy(),
  };
}

/**
 * The body with its content codings undone, last applied first. A coding this client does not
 * know leaves the body as it came (as fetch does).
 */
function decoded(response: IncomingMessage): Readable {
  const { stream, zlib } = nodeModules();
  const header = response.headers["content-encoding"] ?? "";
  const codings = header
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity")
    .reverse();
  const decoders: import("node:stream").Transform[] = [];
  for (const coding of codings) {
    if (coding === "gzip" || coding === "x-gzip") decoders.push(zlib.createGunzip());
    else if (coding === "deflate") decoders.push(zlib.createInflate());
    else if (coding === "br") decoders.push(zlib.createBrotliDecompress());
    else return response;
  }
  if (decoders.length === 0) return response;
  return stream.pipeline([response, ...decoders], () => {}) as unknown as Readable;
}
