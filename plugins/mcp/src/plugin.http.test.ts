import { ToolFailure } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SERVER } from "./test-support/fakes";
import {
  freePort,
  type LocalServer,
  startEverythingHttp,
  startHttpFake,
} from "./test-support/http-fake";
import { type McpTestHost, mcpTestHost } from "./test-support/mcp-host";
import { nodeServer, referenceServer } from "./test-support/servers";

describe("server-everything over Streamable HTTP", () => {
  let server: LocalServer;
  let mcp: McpTestHost;
  beforeAll(async () => {
    server = await startEverythingHttp(referenceServer("everything"));
    mcp = await mcpTestHost([{ pack: "ref/remote", url: server.url }]);
  });
  afterAll(async () => {
    await mcp.host.close();
    await server.close();
  });

  it("lists the server's tools and calls them", async () => {
    expect(mcp.host.packs[0]?.startFailure).toBeNull();
    expect(mcp.host.packs[0]?.tools).toContain("remote/echo");
    await expect(mcp.call(["ref/remote"], "remote/echo", { message: "over http" })).resolves.toBe(
      "Echo: over http",
    );
    await expect(mcp.call(["ref/remote"], "remote/get-sum", { a: 1, b: 41 })).resolves.toBe(
      "The sum of 1 and 41 is 42.",
    );
  });
});

describe("an HTTP server built with the SDK's server classes", () => {
  let server: LocalServer;
  let mcp: McpTestHost;
  beforeAll(async () => {
    server = await startHttpFake();
    mcp = await mcpTestHost([
      { pack: "fake/http", url: server.url, headers: { Authorization: "Bearer t0ken" } },
      {
        pack: "fake/down",
        url: `http://127.0.0.1:${await freePort()}/mcp`,
        connectTimeoutMs: 2000,
      },
      { pack: "fake/local", ...nodeServer(FAKE_SERVER) },
    ]);
  });
  afterAll(async () => {
    await mcp.host.close();
    await server.close();
  });

  it("sends the configured headers with every request", async () => {
    await expect(mcp.call(["fake/http"], "http/whoami")).resolves.toBe("Bearer t0ken");
  });

  it("a 50 MB answer is cut at the limit with a clear error; the next call works", async () => {
    const error = await mcp.call(["fake/http"], "http/huge").catch((caught: unknown) => caught);
    expect(ToolFailure.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "http_huge: the MCP server fake/http failed during the call: it sent a message larger than 10485760 bytes; it is restarted on the next call",
    );
    await expect(mcp.call(["fake/http"], "http/huge", { bytes: 10 })).resolves.toBe("yyyyyyyyyy");
    await expect(mcp.call(["fake/local"], "local/echo", { text: "unmoved" })).resolves.toBe(
      "unmoved",
    );
  });

  it("an HTTP 4xx or 5xx answer mid-call is a clear error; the next call gets a fresh session", async () => {
    for (const code of [500, 503, 404, 401]) {
      const error = await mcp
        .call(["fake/http"], "http/status", { code })
        .catch((caught: unknown) => caught);
      expect(ToolFailure.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(
        `http_status: the MCP server fake/http failed during the call: it answered HTTP ${code}; it is restarted on the next call`,
      );
      await expect(mcp.call(["fake/http"], "http/whoami")).resolves.toBe("Bearer t0ken");
    }
    await expect(mcp.call(["fake/local"], "local/echo", { text: "unmoved" })).resolves.toBe(
      "unmoved",
    );
  });

  it("a server nobody listens for makes its Pack unavailable", () => {
    expect(mcp.host.packs.find((pack) => pack.fullName === "fake/down")?.startFailure).toBe(
      "the MCP server fake/down could not be started: it could not be reached",
    );
  });
});
