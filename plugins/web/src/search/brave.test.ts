import { type PluginApi, SEARCH_PROVIDER, type SearchProvider } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "../test-support/local-server";
import { BRAVE_SEARCH_ENDPOINT, braveSearchPlugin, createBraveSearchProvider } from "./brave";

const ANSWER = {
  type: "search",
  query: { original: "lua" },
  web: {
    type: "search",
    results: [
      {
        title: "The Programming Language <strong>Lua</strong>",
        url: "https://www.lua.org/",
        description: "<strong>Lua</strong> is a powerful, efficient &amp; lightweight language.",
        language: "en",
      },
      { title: "Lua (programming language)", url: "https://en.wikipedia.org/wiki/Lua" },
    ],
  },
};

const KEY = "secret-key-123";
let server: LocalServer;

beforeAll(async () => {
  server = await startServer((request, response) => {
    if (request.headers["x-subscription-token"] !== KEY) {
      response.writeHead(401, { "content-type": "application/json" });
      response.end('{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID"}}');
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(ANSWER));
  });
});

afterAll(async () => {
  await server.close();
});

function search(provider: SearchProvider, query: string, limit = 10) {
  return provider.search({ query, limit, signal: new AbortController().signal });
}

describe("createBraveSearchProvider", () => {
  it("sends the key and count, and maps web.results with the tags stripped", async () => {
    const provider = createBraveSearchProvider({
      apiKey: KEY,
      endpoint: `${server.base}/res/v1/web/search`,
    });
    expect(await search(provider, "lua 5.5", 5)).toEqual([
      {
        title: "The Programming Language Lua",
        url: "https://www.lua.org/",
        description: "Lua is a powerful, efficient & lightweight language.",
      },
      {
        title: "Lua (programming language)",
        url: "https://en.wikipedia.org/wiki/Lua",
        description: "",
      },
    ]);
    const request = server.requests.at(-1);
    expect(request?.url).toBe("/res/v1/web/search?q=lua+5.5&count=5");
    expect(request?.headers.accept).toBe("application/json");
  });

  it("cuts the results to the limit", async () => {
    const provider = createBraveSearchProvider({ apiKey: KEY, endpoint: server.base });
    expect(await search(provider, "lua", 1)).toHaveLength(1);
  });

  it("fails on a refused key without naming the key", async () => {
    const provider = createBraveSearchProvider({ apiKey: "wrong", endpoint: server.base });
    await expect(search(provider, "lua")).rejects.toThrow(
      /^the search service refused the request \(HTTP 401\)$/,
    );
  });

  it("uses the public endpoint by default and refuses malformed options", () => {
    expect(BRAVE_SEARCH_ENDPOINT).toBe("https://api.search.brave.com/res/v1/web/search");
    expect(() => createBraveSearchProvider({ apiKey: "" })).toThrow(
      "options.apiKey must be a Brave Search API key",
    );
    expect(() => createBraveSearchProvider({ apiKey: KEY, endpoint: "nope" })).toThrow(
      "options.endpoint is not a valid URL: nope",
    );
  });
});

describe("braveSearchPlugin", () => {
  it("provides runvil/search-provider", async () => {
    const services = new Map<string, unknown>();
    const api: PluginApi = {
      addPack: () => expect.unreachable(),
      provideService: (id, service) => services.set(id, service),
      addModelProvider: () => expect.unreachable(),
    };
    await braveSearchPlugin.setup(api, { apiKey: KEY, endpoint: server.base });
    expect([...services.keys()]).toEqual([SEARCH_PROVIDER]);
    expect(await search(services.get(SEARCH_PROVIDER) as SearchProvider, "lua", 1)).toHaveLength(1);
  });
});
