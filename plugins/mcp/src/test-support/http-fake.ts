import { spawn } from "node:child_process";
import { createServer, type Server as HttpServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** A local HTTP server, and how to stop it. */
export interface LocalServer {
  readonly url: string;
  close(): Promise<void>;
}

function mcpServer(): Server {
  const server = new Server(
    { name: "http-fake", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  const object = { type: "object" as const, properties: {} };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "whoami",
        description: "Answers the Authorization header it got.",
        inputSchema: object,
      },
      { name: "huge", description: "A big result.", inputSchema: object },
      {
        name: "status",
        description: "Its call is answered with the HTTP status `code`, not a JSON-RPC answer.",
        inputSchema: object,
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    if (request.params.name === "whoami") {
      const header = extra.requestInfo?.headers.authorization;
      return { content: [{ type: "text", text: String(header ?? "nobody") }] };
    }
    const bytes = Number(request.params.arguments?.bytes ?? 50 * 1024 * 1024);
    return { content: [{ type: "text", text: "y".repeat(bytes) }] };
  });
  return server;
}

/**
 * An MCP server over Streamable HTTP on 127.0.0.1 (a random port), built with the SDK's server
 * classes, stateless (a Server per request, JSON responses): tools `whoami` (the Authorization
 * header it got), `huge` (`bytes` bytes of text, 50 MB by default) and `status` (the HTTP
 * request of its call is answered with the status `code` and a text body, mid-call).
 */
export async function startHttpFake(): Promise<LocalServer> {
  const http: HttpServer = createServer(async (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      method?: string;
      params?: { name?: string; arguments?: { code?: number } };
    };
    if (body.method === "tools/call" && body.params?.name === "status") {
      res.writeHead(body.params.arguments?.code ?? 500, { "content-type": "text/plain" });
      res.end("the fake refuses this request");
      return;
    }
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Starts `node {script} streamableHttp` (server-everything's HTTP mode) on a free port and
 * waits until it says it listens.
 */
export async function startEverythingHttp(script: string): Promise<LocalServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [script, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      if (seen.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
