import type { LookupAddress } from "node:dns";
import type { ServerResponse } from "node:http";
import { ToolFailure } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveFetchOptions } from "../fetch-options";
import { createHttpBackend, httpBackend } from "../http/http-backend";
import { isPublicAddress } from "../network/address-policy";
import { type LocalServer, startServer } from "../test-support/local-server";

/**
 * Attack class: web/fetch reaching local services (docs/security.md). Every hop's address is
 * checked after resolution, and the connection goes to the address checked; local and private
 * addresses are refused by default, with a message that names no server text.
 */

const signal = (): AbortSignal => new AbortController().signal;

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(ToolFailure.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected a failure");
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location });
  response.end();
}

/** The local service a prompt must not reach, on 127.0.0.1. */
let target: LocalServer;
/** A page that redirects (`/to?{url}`), on 127.0.0.2, which the redirect tests' policy allows. */
let origin: LocalServer;
let port: number;

beforeAll(async () => {
  target = await startServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("internal admin page");
  });
  port = Number(new URL(target.base).port);
  origin = await startServer((request, response) => {
    const query = (request.url ?? "").split("?")[1] ?? "";
    redirect(response, decodeURIComponent(query));
  }, "127.0.0.2");
});

afterAll(async () => {
  await target.close();
  await origin.close();
});

/** Every spelling of the target's loopback address, and the unspecified address. */
function loopbackSpellings(): string[] {
  return [
    `http://127.0.0.1:${port}/`,
    `http://localhost:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::1]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://[::]:${port}/`,
    `https://localhost:${port}/`,
  ];
}

const METADATA = [
  "http://169.254.169.254/latest/meta-data/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://100.100.100.200/latest/meta-data/",
  "http://10.0.0.1/",
  "http://172.16.5.4/",
  "http://192.168.1.1/",
  "http://[fe80::1]/",
  "http://[fc00::1]/",
  "http://[::ffff:10.0.0.1]/",
  "http://[64:ff9b::a9fe:a9fe]/",
];

describe("security: web/fetch address filtering", () => {
  const backend = createHttpBackend();

  it("refuses every spelling of loopback and 0.0.0.0, before any request", async () => {
    for (const url of loopbackSpellings()) {
      expect(await failure(backend.fetchPage(url, signal()))).toBe(
        `web_fetch: cannot fetch ${url}: its address is on a local or private network, which web/fetch does not reach`,
      );
    }
    expect(target.requests).toHaveLength(0);
  });

  it("refuses cloud metadata, link-local, private and unique-local addresses", async () => {
    for (const url of METADATA) {
      expect(await failure(backend.fetchPage(url, signal()))).toMatch(
        /^web_fetch: cannot fetch .*: its address is on a local or private network, which web\/fetch does not reach$/,
      );
    }
  });

  it("refuses a redirect to any of them, at the hop, naming only the call's url", async () => {
    const allowOrigin = {
      allows: (address: string) => address === "127.0.0.2" || isPublicAddress(address),
      resolve: (hostname: string): Promise<LookupAddress[]> =>
        Promise.resolve(
          hostname === "localhost"
            ? [
                { address: "127.0.0.1", family: 4 },
                { address: "::1", family: 6 },
              ]
            : [],
        ),
    };
    const hops = httpBackend(resolveFetchOptions({}), allowOrigin);
    for (const url of [...loopbackSpellings(), ...METADATA]) {
      const start = `${origin.base}/to?${encodeURIComponent(url)}`;
      expect(await failure(hops.fetchPage(start, signal()))).toBe(
        `web_fetch: the page at ${start} redirected to an address on a local or private network, which web/fetch does not reach`,
      );
    }
    expect(target.requests).toHaveLength(0);
  });

  it("connects to the address it checked: one resolution per connection, no rebinding", async () => {
    const answers: string[][] = [["127.0.0.9", "127.0.0.1"], ["127.0.0.3"]];
    const asked: string[] = [];
    const rebinding = httpBackend(resolveFetchOptions({}), {
      allows: (address) => address === "127.0.0.1",
      resolve: (hostname) => {
        asked.push(hostname);
        const addresses = answers.shift() ?? [];
        return Promise.resolve(addresses.map((address) => ({ address, family: 4 })));
      },
    });
    const url = `http://rebind.example:${port}/`;
    expect(await rebinding.fetchPage(url, signal())).toBe("internal admin page");
    expect(asked).toEqual(["rebind.example"]);
    expect(await failure(rebinding.fetchPage(url, signal()))).toBe(
      `web_fetch: cannot fetch ${url}: its address is on a local or private network, which web/fetch does not reach`,
    );
    expect(asked).toEqual(["rebind.example", "rebind.example"]);
    expect(target.requests).toHaveLength(1);
    target.requests.length = 0;
  });

  it("reaches local addresses when the Host allows the private network", async () => {
    const local = createHttpBackend({ allowPrivateNetwork: true });
    expect(await local.fetchPage(`http://localhost:${port}/`, signal())).toBe(
      "internal admin page",
    );
    expect(await local.fetchPage(`http://2130706433:${port}/`, signal())).toBe(
      "internal admin page",
    );
    target.requests.length = 0;
  });
});
