import { type JsonObject, ToolFailure } from "@runvil/sdk";
import { testToolContext } from "@runvil/sdk/testing";
import { describe, expect, it } from "vitest";
import {
  createFetchTool,
  WEB_FETCH_DESCRIPTION,
  WEB_FETCH_PARAMETERS,
  WEB_FETCH_TOOL_ID,
} from "./fetch-tool";
import type { WebBackend } from "./web-backend";

/** A backend answering fixed pages and recording its calls. */
function fixtureBackend(pages: Readonly<Record<string, string>>) {
  const calls: { url: string; signal: AbortSignal }[] = [];
  const backend: WebBackend = {
    async fetchPage(url, signal) {
      calls.push({ url, signal });
      const page = pages[url];
      if (page === undefined) throw new ToolFailure(`web_fetch: no page at ${url}`);
      return page;
    },
  };
  return { backend, calls };
}

async function failureOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(ToolFailure.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected a failure");
}

describe("web/fetch", () => {
  it("has the id, description, schema and trust of the chapter", () => {
    const tool = createFetchTool(fixtureBackend({}).backend);
    expect(tool.id).toBe("web/fetch");
    expect(WEB_FETCH_TOOL_ID).toBe("web/fetch");
    expect(tool.description).toBe("Fetch a web page and return its readable text.");
    expect(WEB_FETCH_DESCRIPTION).toBe(tool.description);
    expect(tool.parameters).toEqual({
      type: "object",
      properties: {
        url: { type: "string", description: "The http or https URL of the page to fetch." },
      },
      required: ["url"],
    });
    expect(tool.parameters).toBe(WEB_FETCH_PARAMETERS);
    expect(tool.trust).toBe("untrusted");
    expect(tool.output).toBe("plain");
    expect(tool.survivesStop).toBeUndefined();
  });

  it("answers the backend's page for the url, passing the call's signal", async () => {
    const { backend, calls } = fixtureBackend({ "https://www.lua.org/": "Lua: the language" });
    const controller = new AbortController();
    const tool = createFetchTool(backend);
    const text = await tool.run(
      { url: "https://www.lua.org/" },
      testToolContext({ signal: controller.signal }),
    );
    expect(text).toBe("Lua: the language");
    expect(calls).toEqual([{ url: "https://www.lua.org/", signal: controller.signal }]);
  });

  it("passes the backend's failure through", async () => {
    const tool = createFetchTool(fixtureBackend({}).backend);
    expect(
      await failureOf(() => tool.run({ url: "https://nowhere.example/" }, testToolContext())),
    ).toBe("web_fetch: no page at https://nowhere.example/");
  });

  it.each([
    ["no url", {}],
    ["a null url", { url: null }],
    ["an empty url", { url: "" }],
  ] as [string, JsonObject][])("fails with the chapter's message for %s", async (_name, args) => {
    const { backend, calls } = fixtureBackend({});
    const tool = createFetchTool(backend);
    expect(await failureOf(() => tool.run(args, testToolContext()))).toBe(
      "web_fetch: missing url argument",
    );
    expect(calls).toEqual([]);
  });

  it("fails for a url that is not a string", async () => {
    const tool = createFetchTool(fixtureBackend({}).backend);
    expect(await failureOf(() => tool.run({ url: 42 }, testToolContext()))).toBe(
      "web_fetch: the url argument must be a string",
    );
  });

  it("fails by rejecting, never by throwing synchronously", () => {
    const tool = createFetchTool(fixtureBackend({}).backend);
    const result = tool.run({}, testToolContext());
    expect(result).toBeInstanceOf(Promise);
    return expect(result).rejects.toThrow("web_fetch: missing url argument");
  });
});
