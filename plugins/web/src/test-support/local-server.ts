import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A local HTTP server for tests, on 127.0.0.1 and a free port. */
export interface LocalServer {
  /** `http://127.0.0.1:{port}` */
  readonly base: string;
  /** Every request path seen, in order. */
  readonly requests: IncomingMessage[];
  /** Closes the server, dropping open connections. */
  close(): Promise<void>;
}

/** Starts a server answering with `handler`. */
export async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LocalServer> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
