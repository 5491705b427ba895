import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { JsonObject } from "@runvil/sdk";
import packageJson from "../../package.json" with { type: "json" };
import type { McpServerSettings } from "../config/server-config";
import { LinkFailure, quotable } from "./link-failure";
import { listServerTools, type ToolListing } from "./list-tools";
import { openTransport, TransportTrouble } from "./open-transport";

/** How long closing one connection may wait for an HTTP session's DELETE. */
const TERMINATE_SESSION_MS = 2000;

interface Live {
  readonly client: Client;
  readonly transport: Transport;
  readonly trouble: TransportTrouble;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "";
}

/**
 * One configured server and its connection through the official MCP client: started once (at
 * the Host's setup), shared by every run, restarted on the next call after it crashed, hung or
 * closed, at most `maxRestarts` times in a row with no successful call between, and closed when
 * the Host closes. Every failure is a {@link LinkFailure} whose message is written in fixed words.
 */
export class ServerLink {
  readonly #settings: McpServerSettings;
  #live: Live | undefined;
  #connecting: Promise<Live> | undefined;
  #restartsInARow = 0;
  #closed = false;
  readonly #ending = new Set<Promise<void>>();

  constructor(settings: McpServerSettings) {
    this.#settings = settings;
  }

  /** The server, for messages: `MCP server acme/files`. */
  get #who(): string {
    return `the MCP server ${this.#settings.fullName}`;
  }

  /** Starts the server and lists its tools. Rejects with a LinkFailure. */
  async start(): Promise<ToolListing> {
    const live = await this.#connect();
    try {
      return await listServerTools(live.client, this.#settings.connectTimeoutMs);
    } catch (error) {
      this.#drop(live);
      throw this.#failure("could not list its tools", error, live.trouble, "listing");
    }
  }

  /**
   * Calls one tool, with `meta` as the request's `_meta` when given. Resolves with the server's result (an `isError` result included); rejects
   * with a LinkFailure when the call could not be made or answered: the server is down, timed
   * out, closed the connection, sent something unreadable, refused the request, or the call
   * was cancelled through `signal`.
   */
  async call(
    name: string,
    args: JsonObject,
    signal: AbortSignal,
    meta?: Readonly<Record<string, string>>,
  ): Promise<CallToolResult> {
    if (this.#closed) throw new LinkFailure(`${this.#who} is closed (its Host closed)`);
    const live = this.#live ?? (await this.#restart());
    // The client adds an abort listener per request and never removes it: a signal of its own
    // per call, linked to the run's, keeps a run's many calls from piling listeners on it.
    const own = new AbortController();
    const forward = (): void => own.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener("abort", forward, { once: true });
    try {
      const params =
        meta === undefined
          ? { name, arguments: args }
          : { name, arguments: args, _meta: { ...meta } };
      const call = live.client.callTool(params, undefined, {
        signal: own.signal,
        timeout: this.#settings.timeoutMs,
      });
      const result = (await Promise.race([call, live.trouble.broken])) as CallToolResult;
      this.#restartsInARow = 0;
      return result;
    } catch (error) {
      if (signal.aborted) throw new LinkFailure("the call was cancelled", { cause: error });
      throw this.#callFailure(live, error);
    } finally {
      signal.removeEventListener("abort", forward);
    }
  }

  /** Closes the connection (the server process ends); later calls fail. Never rejects. */
  async close(): Promise<void> {
    this.#closed = true;
    const connecting = this.#connecting;
    if (connecting !== undefined) await connecting.catch(() => undefined);
    if (this.#live !== undefined) this.#drop(this.#live);
    await Promise.all([...this.#ending]);
  }

  async #restart(): Promise<Live> {
    if (this.#connecting !== undefined) return this.#connecting;
    const { maxRestarts } = this.#settings;
    if (this.#restartsInARow >= maxRestarts) {
      throw new LinkFailure(
        `${this.#who} stopped ${maxRestarts + 1} times in a row and is not restarted again until its Host restarts`,
      );
    }
    this.#restartsInARow += 1;
    try {
      return await this.#connect();
    } catch (error) {
      const reason = error instanceof LinkFailure ? error.message : "it could not be started";
      throw new LinkFailure(`${this.#who} stopped and could not be restarted: ${reason}`, {
        cause: error,
      });
    }
  }

  #connect(): Promise<Live> {
    const attempt = this.#connectOnce().finally(() => {
      if (this.#connecting === attempt) this.#connecting = undefined;
    });
    this.#connecting = attempt;
    return attempt;
  }

  async #connectOnce(): Promise<Live> {
    const settings = this.#settings;
    const trouble = new TransportTrouble();
    const transport = openTransport(settings.transport, settings.maxMessageBytes, trouble);
    const client = new Client({ name: "runvil", version: packageJson.version });
    const live: Live = { client, transport, trouble };
    client.onerror = (error) => trouble.noteError(error);
    client.onclose = () => {
      if (this.#live === live) this.#live = undefined;
    };
    try {
      await client.connect(transport, { timeout: settings.connectTimeoutMs });
    } catch (error) {
      this.#drop(live);
      throw this.#failure("could not be started", error, trouble, "connect");
    }
    if (this.#closed) {
      this.#drop(live);
      throw new LinkFailure(`${this.#who} is closed (its Host closed)`);
    }
    this.#live = live;
    return live;
  }

  /** Forgets a connection and closes it in the background (the Host's close waits for it). */
  #drop(live: Live): void {
    if (this.#live === live) this.#live = undefined;
    const ending = this.#end(live).finally(() => this.#ending.delete(ending));
    this.#ending.add(ending);
  }

  async #end(live: Live): Promise<void> {
    try {
      if (live.transport instanceof StreamableHTTPClientTransport && live.transport.sessionId) {
        await Promise.race([
          live.transport.terminateSession().catch(() => undefined),
          delay(TERMINATE_SESSION_MS),
        ]);
      }
      await live.client.close();
    } catch {
      // Closing is best effort: the process is killed or the socket dropped either way.
    }
  }

  #callFailure(live: Live, error: unknown): LinkFailure {
    const { trouble } = live;
    if (error instanceof McpError && !isConnectionError(error)) {
      // The server answered with a JSON-RPC error: the connection is fine.
      const detail = this.#settings.trusted ? `: ${quotable(serverText(error))}` : "";
      return new LinkFailure(
        `${this.#who} refused the call (JSON-RPC error ${error.code})${detail}`,
        {
          cause: error,
        },
      );
    }
    if (errorName(error) === "ZodError" || errorName(error) === "$ZodError") {
      return new LinkFailure(
        `${this.#who} answered with something that is not a tools/call result`,
        {
          cause: error,
        },
      );
    }
    this.#drop(live);
    return this.#failure("failed during the call", error, trouble, "call");
  }

  /** The failure for a connection that broke, in fixed words, saying it restarts. */
  #failure(
    what: string,
    error: unknown,
    trouble: TransportTrouble,
    phase: "connect" | "listing" | "call",
  ): LinkFailure {
    const settings = this.#settings;
    const cause = new Error(`${this.#who}: ${describe(error)}`, { cause: error });
    if (trouble.stderrTail !== "")
      (cause as Error & { stderr?: string }).stderr = trouble.stderrTail;
    const next = phase === "call" ? "; it is restarted on the next call" : "";
    const invalid =
      trouble.invalidMessages > 0
        ? ` after sending ${trouble.invalidMessages} ${trouble.invalidMessages === 1 ? "message that is" : "messages that are"} not valid JSON-RPC`
        : "";
    let why: string;
    if (trouble.tooLarge) {
      why = `it sent a message larger than ${settings.maxMessageBytes} bytes`;
    } else if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const ms = phase === "call" ? settings.timeoutMs : settings.connectTimeoutMs;
      why = `it did not answer within ${ms} ms${invalid}`;
    } else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      why = `it closed the connection (its process exited or ended its output)${invalid}`;
    } else if (
      (error as NodeJS.ErrnoException)?.code === "ENOENT" &&
      settings.transport.kind === "stdio"
    ) {
      why = `the command ${JSON.stringify(settings.transport.command)} was not found`;
    } else if (error instanceof StreamableHTTPError) {
      why =
        error.code === undefined
          ? "its HTTP answer was unusable"
          : `it answered HTTP ${error.code}`;
    } else if (error instanceof TypeError) {
      why = "it could not be reached";
    } else {
      why = `the connection failed${invalid}`;
    }
    return new LinkFailure(`${this.#who} ${what}: ${why}${next}`, { cause });
  }
}

function isConnectionError(error: McpError): boolean {
  return error.code === ErrorCode.ConnectionClosed || error.code === ErrorCode.RequestTimeout;
}

/** A McpError's own text, without the `MCP error {code}: ` the client adds. */
function serverText(error: McpError): string {
  return error.message.replace(/^MCP error -?\d+: /, "");
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
