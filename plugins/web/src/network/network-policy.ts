import type { LookupAddress, LookupOptions } from "node:dns";
import { createRequire } from "node:module";
import type { LookupFunction } from "node:net";
import { isPublicAddress } from "./address-policy";

/** Which addresses a fetch may connect to, and how host names become addresses. */
export interface NetworkPolicy {
  /** Whether a fetch may connect to `address` (IPv4 dotted or IPv6 text, no brackets). */
  readonly allows: (address: string) => boolean;
  /** Every address of `hostname` (the system resolver by default). */
  readonly resolve: (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;
}

/** A connection refused by the policy: the address is not one web/fetch may reach. */
export class RefusedAddressError extends Error {
  /** A code of our own, so Node's error handling passes the error on unchanged. */
  readonly code = "ERUNVIL_REFUSED_ADDRESS";

  constructor() {
    super("the address is on a local or private network");
    this.name = "RefusedAddressError";
  }
}

/** Whether `error` (or an error in its cause chain) is a {@link RefusedAddressError}. */
export function isRefusedAddress(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === "ERUNVIL_REFUSED_ADDRESS") return true;
    current = current.cause;
  }
  return false;
}

let dns: typeof import("node:dns") | undefined;

/** The system resolver (`dns.lookup`, every address); node:dns loads at the first fetch. */
function systemResolve(hostname: string, options: LookupOptions): Promise<LookupAddress[]> {
  dns ??= createRequire(import.meta.url)("node:dns") as typeof import("node:dns");
  const { lookup } = dns;
  return new Promise((resolve, reject) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) =>
      error === null ? resolve(addresses) : reject(error),
    );
  });
}

/** The default policy: public unicast addresses only ({@link isPublicAddress}). */
export const PUBLIC_ADDRESSES: NetworkPolicy = { allows: isPublicAddress, resolve: systemResolve };

/** The policy of `allowPrivateNetwork: true`: every address. */
export const ANY_ADDRESS: NetworkPolicy = { allows: () => true, resolve: systemResolve };

/** The address a URL names directly (`127.0.0.1`, `[::1]` → `::1`), or undefined for a name. */
export function literalAddress(url: URL, isIp: (text: string) => number): string | undefined {
  const host =
    url.hostname.startsWith("[") && url.hostname.endsWith("]")
      ? url.hostname.slice(1, -1)
      : url.hostname;
  return isIp(host) === 0 ? undefined : host;
}

/**
 * The `lookup` option of a connection (net.connect calls it for a host name, never for an IP
 * literal): resolves the name once through the policy, keeps only the addresses it allows, and
 * hands exactly those to the connection, so the address checked is the address connected to
 * (no second resolution between check and connect: no DNS rebinding). No allowed address: the
 * connection fails with a {@link RefusedAddressError}.
 */
export function policyLookup(policy: NetworkPolicy): LookupFunction {
  return (hostname, options, callback) => {
    policy.resolve(hostname, options).then(
      (addresses) => {
        const allowed = addresses.filter((entry) => policy.allows(entry.address));
        const first = allowed[0];
        if (first === undefined) {
          callback(new RefusedAddressError(), "", 0);
        } else if (options.all === true) {
          callback(null, allowed);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
