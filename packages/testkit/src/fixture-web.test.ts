import { ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import {
  FixtureSearchProvider,
  fixturePageFetcher,
  noPageMessage,
  noResultsMessage,
} from "./fixture-web";

const live = () => new AbortController().signal;

describe("fixturePageFetcher", () => {
  const fetchPage = fixturePageFetcher({
    "https://www.lua.org/": "Lua: the programming language",
    "https://empty.example/": "",
  });

  it("answers a scripted url with its text exactly", async () => {
    expect(await fetchPage("https://www.lua.org/", live())).toBe("Lua: the programming language");
    expect(await fetchPage("https://empty.example/", live())).toBe("");
  });

  it("fails an unknown url with a ToolFailure naming it", async () => {
    const error = await fetchPage("https://www.lua.org", live()).catch((e: unknown) => e);
    expect(ToolFailure.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("web_fetch: no page at https://www.lua.org");
    expect(noPageMessage("x")).toBe("web_fetch: no page at x");
  });

  it("does not treat inherited object keys as pages", async () => {
    await expect(fetchPage("constructor", live())).rejects.toThrow(
      "web_fetch: no page at constructor",
    );
  });

  it("rejects with the signal's reason when already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(fetchPage("https://www.lua.org/", controller.signal)).rejects.toThrow("stopped");
  });
});

describe("FixtureSearchProvider", () => {
  it("answers a scripted query with its results text and records the queries", async () => {
    const provider = new FixtureSearchProvider({ "latest Lua release": "1. Lua 5.5.0 released" });
    const results = await provider.search({
      query: "latest Lua release",
      limit: 5,
      signal: live(),
    });
    expect(results).toBe("1. Lua 5.5.0 released");
    expect(provider.queries).toEqual(["latest Lua release"]);
  });

  it("fails an unknown query with a ToolFailure naming it", async () => {
    const provider = new FixtureSearchProvider({});
    const error = await provider
      .search({ query: "lua", limit: 5, signal: live() })
      .catch((e: unknown) => e);
    expect(ToolFailure.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('web_search: no results for "lua"');
    expect(noResultsMessage("a")).toBe('web_search: no results for "a"');
  });
});
