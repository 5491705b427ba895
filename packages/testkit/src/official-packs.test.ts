import { subagentsPack } from "@runvil/plugin-subagents";
import { userInputPack } from "@runvil/plugin-user-input";
import { type ToolContext, ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { officialPacks } from "./official-packs";

const ctx = { signal: new AbortController().signal } as ToolContext;

describe("officialPacks", () => {
  it("gives the official Packs in the order asked", () => {
    const packs = officialPacks(["subagents", "web", "user-input"], { pages: {}, search: {} });
    expect(packs.map((pack) => `${pack.vendor}/${pack.name}`)).toEqual([
      "runvil/subagents",
      "runvil/web",
      "runvil/user-input",
    ]);
    expect(packs[0]).toBe(subagentsPack);
    expect(packs[2]).toBe(userInputPack);
    expect(officialPacks([], { pages: {}, search: {} })).toEqual([]);
  });

  it("reads web/fetch pages from the case's web.pages", async () => {
    const [web] = officialPacks(["web"], { pages: { "https://a/": "A" }, search: {} });
    const fetch = web?.tools.find((tool) => tool.id === "web/fetch");
    expect(await fetch?.run({ url: "https://a/" }, ctx)).toBe("A");
    const error = await Promise.resolve(fetch?.run({ url: "https://b/" }, ctx)).catch(
      (e: unknown) => e,
    );
    expect(ToolFailure.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("web_fetch: no page at https://b/");
  });
});
