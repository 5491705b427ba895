import { SEARCH_PROVIDER, ToolFailure } from "@runvil/sdk";
import { testToolContext } from "@runvil/sdk/testing";
import { describe, expect, it } from "vitest";
import { createWebPack, WEB_PACK_DESCRIPTION } from "./pack";

describe("createWebPack", () => {
  it("is runvil/web, needing a search provider, with exactly web/fetch and web/search", () => {
    const pack = createWebPack();
    expect(pack.vendor).toBe("runvil");
    expect(pack.name).toBe("web");
    expect(pack.description).toBe("Search the web and fetch pages");
    expect(WEB_PACK_DESCRIPTION).toBe(pack.description);
    expect(pack.services).toEqual([SEARCH_PROVIDER]);
    expect(pack.prelude).toBeUndefined();
    expect(pack.tools.map((tool) => tool.id)).toEqual(["web/fetch", "web/search"]);
    expect(pack.tools.map((tool) => tool.trust)).toEqual(["untrusted", "untrusted"]);
  });

  it("reads pages through the backend it is given, called as a method", async () => {
    const fixture = {
      pages: { "https://www.lua.org/": "Lua: the programming language" } as Record<string, string>,
      async fetchPage(url: string): Promise<string> {
        const page = this.pages[url];
        if (page === undefined) throw new ToolFailure(`web_fetch: no page at ${url}`);
        return page;
      },
    };
    const fetchTool = createWebPack(fixture).tools[0];
    expect(await fetchTool?.run({ url: "https://www.lua.org/" }, testToolContext())).toBe(
      "Lua: the programming language",
    );
    await expect(fetchTool?.run({ url: "https://x.example/" }, testToolContext())).rejects.toThrow(
      "web_fetch: no page at https://x.example/",
    );
  });

  it("uses real HTTP when the backend gives no fetchPage", async () => {
    const fetchTool = createWebPack({}).tools[0];
    await expect(fetchTool?.run({ url: "ftp://x.example/" }, testToolContext())).rejects.toThrow(
      "web_fetch: cannot fetch ftp://x.example/: only http and https URLs can be fetched",
    );
  });
});
