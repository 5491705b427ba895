import { fileURLToPath } from "node:url";

/** The fake MCP server script (see fake-server.mjs). */
export const FAKE_SERVER = fileURLToPath(new URL("./fake-server.mjs", import.meta.url));

/** The process that answers only with lines that are not JSON-RPC (see garbage-server.mjs). */
export const GARBAGE_SERVER = fileURLToPath(new URL("./garbage-server.mjs", import.meta.url));
