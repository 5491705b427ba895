import { type PluginApi, SEARCH_PROVIDER, type SearchProvider } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "../test-support/local-server";
import { createSearxngSearchProvider, searxngSearchPlugin } from "./searxng";

const ANSWER = {
  query: "lua",
  number_of_results: 0,
  results: [
    {
      url: "https://www.lua.org/",
      title: "The Programming Language Lua",
      content: "Lua is a powerful language.",
      engine: "duckduckgo",
    },
    { url: "https://en.wikipedia.org/wiki/Lua", title: "Lua - Wikipedia", engine: "wikipedia" },
    { title: "no url", content: "dropped" },
    { url: "https://example.org/3", title: "Third", content: "Three." },
  ],
  answers: [],
  suggestions: ["lua tutorial"],
};

let server: LocalServer;
let status = 200;
let body = JSON.stringify(ANSWER);

beforeAll(async () => {
  server = await startServer((request, response) => {
    if (request.url?.startsWith("/hang")) return;
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body);
  });
});

afterAll(async () => {
  await server.close();
});

function search(provider: SearchProvider, query: string, limit = 10, signal?: AbortSignal) {
  return provider.search({ query, limit, signal: signal ?? new AbortController().signal });
}

describe("createSearxngSearchProvider", () => {
  it("GETs {url}/search?q=...&format=json and maps the results", async () => {
    const provider = createSearxngSearchProvider({ url: server.base });
    expect(await search(provider, "lua & c++")).toEqual([
      {
        title: "The Programming Language Lua",
        url: "https://www.lua.org/",
        description: "Lua is a powerful language.",
      },
      { title: "Lua - Wikipedia", url: "https://en.wikipedia.org/wiki/Lua", description: "" },
      { title: "Third", url: "https://example.org/3", description: "Three." },
    ]);
    const request = server.requests.at(-1);
    expect(request?.method).toBe("GET");
    expect(request?.url).toBe("/search?q=lua+%26+c%2B%2B&format=json");
  });

  it("keeps a base path and cuts the results to the limit", async () => {
    const provider = createSearxngSearchProvider({ url: `${server.base}/searx/` });
    expect(await search(provider, "lua", 1)).toHaveLength(1);
    expect(server.requests.at(-1)?.url).toBe("/searx/search?q=lua&format=json");
  });

  it("fails with model-safe messages that never name the instance", async () => {
    const provider = createSearxngSearchProvider({ url: server.base });
    try {
      status = 403;
      await expect(search(provider, "lua")).rejects.toThrow(
        /^the search service refused JSON output \(HTTP 403\)$/,
      );
      status = 500;
      await expect(search(provider, "lua")).rejects.toThrow(
        /^the search service answered HTTP 500$/,
      );
      status = 429;
      await expect(search(provider, "lua")).rejects.toThrow(
        /^the search service's rate limit was reached \(HTTP 429\)$/,
      );
      status = 200;
      body = "<html>not json</html>";
      await expect(search(provider, "lua")).rejects.toThrow(
        /^the search service's answer is not JSON$/,
      );
      body = "{}";
      expect(await search(provider, "lua")).toEqual([]);
    } finally {
      status = 200;
      body = JSON.stringify(ANSWER);
    }
  });

  it("times out, and stops when the request's signal aborts", async () => {
    const slow = createSearxngSearchProvider({ url: `${server.base}/hang`, timeoutMs: 100 });
    await expect(search(slow, "lua")).rejects.toThrow(/^the search timed out after 100 ms$/);
    const controller = new AbortController();
    const pending = search(
      createSearxngSearchProvider({ url: `${server.base}/hang` }),
      "lua",
      10,
      controller.signal,
    );
    controller.abort();
    await expect(pending).rejects.toThrow(/^the search was cancelled$/);
  });

  it("fails when the instance cannot be reached", async () => {
    const gone = await startServer(() => {});
    const url = gone.base;
    await gone.close();
    await expect(search(createSearxngSearchProvider({ url }), "lua")).rejects.toThrow(
      /^the search service could not be reached$/,
    );
  });

  it("refuses malformed options", () => {
    expect(() => createSearxngSearchProvider({ url: "" })).toThrow(
      "options.url must be the SearXNG instance's URL",
    );
    expect(() => createSearxngSearchProvider({ url: "http://" })).toThrow(
      "options.url is not a valid URL: http://",
    );
    expect(() => createSearxngSearchProvider({ url: "localhost:8888" })).toThrow(
      "options.url must be an http or https URL: localhost:8888",
    );
    expect(() => createSearxngSearchProvider({ url: server.base, timeoutMs: -1 })).toThrow(
      "options.timeoutMs must be a positive number",
    );
  });
});

describe("searxngSearchPlugin", () => {
  it("provides runvil/search-provider from its options", async () => {
    const services = new Map<string, unknown>();
    const api: PluginApi = {
      addPack: () => expect.unreachable(),
      provideService: (id, service) => services.set(id, service),
      addModelProvider: () => expect.unreachable(),
    };
    await searxngSearchPlugin.setup(api, { url: server.base });
    expect([...services.keys()]).toEqual([SEARCH_PROVIDER]);
    const provider = services.get(SEARCH_PROVIDER) as SearchProvider;
    expect(await search(provider, "lua", 1)).toEqual([
      {
        title: "The Programming Language Lua",
        url: "https://www.lua.org/",
        description: "Lua is a powerful language.",
      },
    ]);
  });

  it("refuses to set up without options", () => {
    const api: PluginApi = { addPack() {}, provideService() {}, addModelProvider() {} };
    expect(() => searxngSearchPlugin.setup(api, undefined)).toThrow("options must be an object");
  });
});
