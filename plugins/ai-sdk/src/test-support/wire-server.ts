import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer of a {@link WireServer}. */
export type WireAnswer =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly raw: string; readonly status?: number; readonly headers?: Record<string, string> }
  | {
      /** Server-sent events, each written as is (a `data:` line, or `event:` + `data:`). */
      readonly sse: readonly string[];
      /** Destroy the socket after the events instead of ending the response. */
      readonly cut?: boolean;
      /** After the events, keep writing this event every millisecond until the client leaves. */
      readonly endless?: string;
      /** After the events, send nothing more and keep the connection open. */
      readonly stall?: boolean;
    }
  /** Accept the request and never answer. */
  | { readonly hang: true };

/** A request the server received. */
export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
}

/** One SSE `data:` event of a JSON value. */
export function data(value: unknown): string {
  return `data: ${typeof value === "string" ? value : JSON.stringify(value)}\n\n`;
}

/** One named SSE event (Anthropic's form). */
export function named(event: string, value: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(value)}\n\n`;
}

/**
 * A local HTTP server on 127.0.0.1 answering each request with the next scripted answer (the
 * last one repeats), recording every request. The vendors' wire formats are the tests' own
 * fixtures, shaped like their documented responses.
 */
export class WireServer {
  readonly requests: WireRequest[] = [];
  readonly #answers: WireAnswer[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #url = "";

  constructor() {
    this.#server = createServer((req, res) => {
      void this.#handle(req, res);
    });
    this.#server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  /** The base URL, such as `http://127.0.0.1:4123`. */
  get url(): string {
    return this.#url;
  }

  /** Starts listening on a free port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Queues answers for the next requests. */
  answer(...answers: WireAnswer[]): this {
    this.#answers.push(...answers);
    return this;
  }

  /** Closes every connection and the server. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Kept as text.
    }
    this.requests.push({
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
    });
    const answer = this.#answers.length > 1 ? this.#answers.shift() : this.#answers[0];
    if (answer === undefined) {
      res
        .writeHead(500, { "content-type": "application/json" })
        .end('{"error":"no answer scripted"}');
      return;
    }
    if ("hang" in answer) return;
    if ("json" in answer || "raw" in answer) {
      const payload = "json" in answer ? JSON.stringify(answer.json) : answer.raw;
      res
        .writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers })
        .end(payload);
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    for (const event of answer.sse) res.write(event);
    if (answer.cut === true) {
      res.flushHeaders();
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    if (answer.stall === true) return;
    const endless = answer.endless;
    if (endless !== undefined) {
      const timer = setInterval(() => {
        if (res.destroyed || res.writableEnded) clearInterval(timer);
        else res.write(endless);
      }, 1);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.end();
  }
}
