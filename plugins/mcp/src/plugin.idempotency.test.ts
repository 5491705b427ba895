import { testToolContext } from "@runvil/sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SERVER } from "./test-support/fakes";
import { type McpTestHost, mcpTestHost } from "./test-support/mcp-host";
import { nodeServer } from "./test-support/servers";

describe("the idempotency key of a tools/call (a real server process)", () => {
  let mcp: McpTestHost;
  beforeAll(async () => {
    mcp = await mcpTestHost([{ pack: "fake/fake", ...nodeServer(FAKE_SERVER) }]);
  });
  afterAll(() => mcp.host.close());

  const metaOf = async (context: Parameters<typeof testToolContext>[0]): Promise<unknown> => {
    const tool = mcp.prepare(["fake/fake"]).tools.get("fake/meta");
    if (tool === undefined) throw new Error("no fake/meta");
    return JSON.parse(String(await tool.run({}, testToolContext({ toolId: tool.id, ...context }))));
  };

  it("sends the run id and the effect id as the request's _meta", async () => {
    await expect(metaOf({ runId: "r-1", effectId: "0.1/3" })).resolves.toEqual({
      "runvil/run-id": "r-1",
      "runvil/effect-id": "0.1/3",
    });
    // The same call made again (a resumed run) sends the same key; another call another one.
    await expect(metaOf({ runId: "r-1", effectId: "0.1/3" })).resolves.toEqual({
      "runvil/run-id": "r-1",
      "runvil/effect-id": "0.1/3",
    });
    await expect(metaOf({ runId: "r-1", effectId: "0.2/1" })).resolves.toEqual({
      "runvil/run-id": "r-1",
      "runvil/effect-id": "0.2/1",
    });
  });

  it("sends only the effect id for a run nobody records", async () => {
    await expect(metaOf({ effectId: "0.1/1" })).resolves.toEqual({ "runvil/effect-id": "0.1/1" });
  });
});
