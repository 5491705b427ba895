import type { PackDefinition, PluginApi } from "@runvil/sdk";
import { testToolContext } from "@runvil/sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webPlugin } from "./plugin";
import { type LocalServer, startServer } from "./test-support/local-server";

function recordingApi() {
  const packs: PackDefinition[] = [];
  const api: PluginApi = {
    addPack: (pack) => packs.push(pack),
    provideService: () => expect.unreachable(),
    addModelProvider: () => expect.unreachable(),
  };
  return { api, packs };
}

let server: LocalServer;

beforeAll(async () => {
  server = await startServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("x".repeat(100));
  });
});

afterAll(async () => {
  await server.close();
});

describe("webPlugin", () => {
  it("is named @runvil/plugin-web and adds runvil/web, and no service", async () => {
    expect(webPlugin.name).toBe("@runvil/plugin-web");
    const { api, packs } = recordingApi();
    await webPlugin.setup(api, undefined);
    expect(packs.map((pack) => `${pack.vendor}/${pack.name}`)).toEqual(["runvil/web"]);
  });

  it("hands its fetch options to web/fetch's HTTP backend", async () => {
    const { api, packs } = recordingApi();
    await webPlugin.setup(api, { fetch: { maxBytes: 10, allowPrivateNetwork: true } });
    const fetchTool = packs[0]?.tools[0];
    await expect(fetchTool?.run({ url: `${server.base}/` }, testToolContext())).rejects.toThrow(
      `web_fetch: the page at ${server.base}/ is larger than 10 bytes`,
    );
  });

  it("refuses local addresses unless its options allow them", async () => {
    const { api, packs } = recordingApi();
    await webPlugin.setup(api, { fetch: { maxBytes: 10 } });
    const before = server.requests.length;
    await expect(
      packs[0]?.tools[0]?.run({ url: `${server.base}/` }, testToolContext()),
    ).rejects.toThrow(
      `web_fetch: cannot fetch ${server.base}/: its address is on a local or private network, which web/fetch does not reach`,
    );
    expect(server.requests.length).toBe(before);
  });

  it.each([
    [null, "options must be an object"],
    [{ fetch: 5 }, "options.fetch must be an object"],
    [{ fetch: { timeoutMs: 0 } }, "options.fetch.timeoutMs must be a positive number"],
    [{ fetch: { timeoutMs: "20s" } }, "options.fetch.timeoutMs must be a positive number"],
    [
      { fetch: { maxBytes: 1.5 } },
      "options.fetch.maxBytes must be a whole number of bytes, 0 or more",
    ],
    [
      { fetch: { maxRedirects: -1 } },
      "options.fetch.maxRedirects must be a whole number, 0 or more",
    ],
    [{ fetch: { userAgent: 1 } }, "options.fetch.userAgent must be a string"],
    [
      { fetch: { allowPrivateNetwork: "yes" } },
      "options.fetch.allowPrivateNetwork must be true or false",
    ],
  ])("refuses the options %j", (options, message) => {
    const { api } = recordingApi();
    expect(() => webPlugin.setup(api, options as never)).toThrow(message);
  });
});
