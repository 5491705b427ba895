import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The entry script of a reference MCP server installed from npm (a devDependency). */
export function referenceServer(name: "everything" | "filesystem" | "memory"): string {
  const manifest = require.resolve(`@modelcontextprotocol/server-${name}/package.json`);
  return join(dirname(manifest), "dist", "index.js");
}

/** The entry of a stdio server run by this Node (`process.execPath`). */
export function nodeServer(script: string, args: readonly string[] = []) {
  return { command: process.execPath, args: [script, ...args] };
}
