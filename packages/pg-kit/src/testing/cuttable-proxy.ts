import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of the test server that a test can cut (every connection dropped, new
 * ones refused, as when the server goes away) and restore, without touching the shared server.
 */
export class CuttableProxy {
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;

  constructor(targetUrl: string) {
    const parsed = new URL(targetUrl);
    this.#target = { host: parsed.hostname, port: Number(parsed.port || 5432) };
  }

  /** Starts listening (on a free port the first time, on the same port afterwards). */
  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#target);
      this.#track(client);
      this.#track(upstream);
      client.pipe(upstream).pipe(client);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", drop);
      upstream.on("error", drop);
      client.on("close", drop);
      upstream.on("close", drop);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#port, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (address !== null && typeof address === "object") this.#port = address.port;
    this.#server = server;
  }

  /** `url` with the host and port of the proxy. */
  urlFor(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = "127.0.0.1";
    parsed.port = String(this.#port);
    return parsed.toString();
  }

  /** Drops every connection and refuses new ones until {@link start} is called again. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on("close", () => this.#sockets.delete(socket));
  }
}
