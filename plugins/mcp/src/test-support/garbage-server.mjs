// Not an MCP server: answers every line it reads with a line that is not JSON-RPC (and one
// that is JSON but not JSON-RPC), so the client never gets an answer to its initialize request.
import { createInterface } from "node:readline";

for await (const _line of createInterface({ input: process.stdin })) {
  process.stdout.write("{not json\n");
  process.stdout.write('{"hello":"world"}\n');
}
