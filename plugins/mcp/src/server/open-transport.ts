import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerTransport } from "../config/server-config";
import { boundedFetch } from "./bounded-fetch";

/** The last bytes of a server's stderr kept for a failure's hidden cause. */
export const STDERR_TAIL_BYTES = 8 * 1024;

/** What one connection saw go wrong below the protocol: kept for the failure messages. */
export class TransportTrouble {
  /** Messages the client could not read (not JSON, not JSON-RPC). */
  invalidMessages = 0;
  /** A message over the size limit ended the connection. */
  tooLarge = false;
  /** The first transport error (hidden cause only: it may hold server text). */
  firstError: unknown;
  /** The last bytes the server wrote to stderr (stdio; hidden cause only). */
  stderrTail = "";
  /**
   * Rejects once the connection is known to be unusable (a message over the limit): a pending
   * call races it, so it fails at once rather than when the process has finally exited.
   */
  readonly broken: Promise<never>;
  #break: (error: unknown) => void = () => {};

  constructor() {
    this.broken = new Promise<never>((_resolve, reject) => {
      this.#break = reject;
    });
    this.broken.catch(() => undefined);
  }

  /** Records a message over the size limit: the connection is unusable. */
  noteTooLarge(error: unknown): void {
    this.tooLarge = true;
    this.firstError ??= error;
    this.#break(error);
  }

  /** Records a transport error as the client reports it. */
  noteError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith("ReadBuffer exceeded maximum size")) {
      this.noteTooLarge(error);
      return;
    }
    this.firstError ??= error;
    if (isInvalidMessage(error)) this.invalidMessages += 1;
  }
}

/** Whether a transport error is the client failing to read one message (bad JSON or shape). */
function isInvalidMessage(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const name = error instanceof Error ? error.name : "";
  return name === "ZodError" || name === "$ZodError";
}

/**
 * The MCP client transport for a configured server: stdio (the server's stderr piped and its
 * tail kept, so it neither floods the terminal nor blocks on a full pipe; messages bounded by
 * `maxMessageBytes`) or Streamable HTTP (the configured headers on every request; response
 * bodies bounded by `maxMessageBytes`). Nothing starts until the client connects.
 */
export function openTransport(
  config: McpServerTransport,
  maxMessageBytes: number,
  trouble: TransportTrouble,
): Transport {
  if (config.kind === "http") {
    return new StreamableHTTPClientTransport(config.url, {
      requestInit: { headers: { ...config.headers } },
      fetch: boundedFetch(maxMessageBytes, (error) => trouble.noteTooLarge(error)),
      // A dropped SSE stream is not resumed: the call fails and the next one reconnects.
      reconnectionOptions: {
        maxReconnectionDelay: 1000,
        initialReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 0,
      },
    });
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...config.args],
    env: { ...config.env },
    cwd: config.cwd,
    stderr: "pipe",
    maxBufferSize: maxMessageBytes,
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    const text = trouble.stderrTail + chunk.toString("utf8");
    trouble.stderrTail = text.length > STDERR_TAIL_BYTES ? text.slice(-STDERR_TAIL_BYTES) : text;
  });
  return transport;
}
