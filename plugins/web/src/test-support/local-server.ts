import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A local HTTP server for tests, on a loopback address and a free port. */
export interface LocalServer {
  /** `http://{host}:{port}` */
  readonly base: string;
  /** Every request path seen, in order. */
  readonly requests: IncomingMessage[];
  /** Closes the server, dropping open connections. */
  close(): Promise<void>;
}

/** Starts a server answering with `handler`, on `host` (a loopback address, 127.0.0.1 by default). */
export async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  host = "127.0.0.1",
): Promise<LocalServer> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
