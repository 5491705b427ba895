import { ToolFailure } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestHost, mcpTestHost } from "./test-support/mcp-host";
import { nodeServer, referenceServer } from "./test-support/servers";

describe("server-everything over stdio", () => {
  let mcp: McpTestHost;
  beforeAll(async () => {
    mcp = await mcpTestHost([
      { pack: "ref/everything", ...nodeServer(referenceServer("everything"), ["stdio"]) },
      {
        pack: "ref/trusted",
        trusted: true,
        ...nodeServer(referenceServer("everything"), ["stdio"]),
      },
    ]);
  });
  afterAll(() => mcp.host.close());

  it("registers the server's tools as the Pack's tools, ids {pack}/{tool}", () => {
    const pack = mcp.host.packs.find((p) => p.fullName === "ref/everything");
    expect(pack?.startFailure).toBeNull();
    expect(pack?.tools).toContain("everything/echo");
    expect(pack?.tools).toContain("everything/get-sum");
    const run = mcp.prepare(["ref/everything"]);
    const echo = run.catalog.tools.find((tool) => tool.id === "everything/echo");
    expect(echo).toMatchObject({ wireName: "everything_echo", structured: false });
    expect(echo?.description).toBe("Echoes back the input string");
    expect(echo?.parameters).toMatchObject({
      type: "object",
      properties: { message: { type: "string" } },
    });
  });

  it("calls a tool: its text content is the output, untrusted by default", async () => {
    const run = mcp.prepare(["ref/everything"]);
    expect(run.tools.get("everything/echo")?.trust).toBe("untrusted");
    await expect(mcp.call(["ref/everything"], "everything/echo", { message: "hi" })).resolves.toBe(
      "Echo: hi",
    );
    await expect(mcp.call(["ref/everything"], "everything/get-sum", { a: 2, b: 3 })).resolves.toBe(
      "The sum of 2 and 3 is 5.",
    );
  });

  it("gives a trusted server's tool with an output schema a structured output", async () => {
    const run = mcp.prepare(["ref/trusted"]);
    const tool = run.tools.get("trusted/get-structured-content");
    expect(tool?.trust).toBe("trusted");
    expect(tool?.output).toBe("structured");
    await expect(
      mcp.call(["ref/trusted"], "trusted/get-structured-content", { location: "Chicago" }),
    ).resolves.toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    expect(
      mcp.prepare(["ref/everything"]).tools.get("everything/get-structured-content")?.output,
    ).toBe("plain");
  });

  it("turns a server's JSON-RPC refusal into a ToolFailure in fixed words", async () => {
    const failure = await mcp
      .call(["ref/everything"], "everything/get-sum", { a: "x" })
      .catch((error: unknown) => error);
    expect(ToolFailure.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/^everything_get-sum: /);
  });
});
