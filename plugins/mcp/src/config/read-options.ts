import { isAbsolute, resolve } from "node:path";
import { parsePackName } from "./pack-name";
import { readPrelude } from "./read-prelude";
import { MCP_DEFAULTS, type McpServerSettings, type McpServerTransport } from "./server-config";

/** The keys an entry may have. */
const ENTRY_KEYS = [
  "pack",
  "description",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "trusted",
  "prelude",
  "timeoutMs",
  "connectTimeoutMs",
  "maxMessageBytes",
  "maxRestarts",
] as const;

/** A problem with the options that leaves no Pack to carry it: the plugin's setup fails. */
export class McpOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpOptionsError";
  }
}

/** An entry whose Pack name is readable but whose rest is not: its Pack is unavailable. */
export interface BrokenEntry {
  readonly entry: string;
  readonly vendor: string;
  readonly packId: string;
  readonly fullName: string;
  /** What is wrong, naming the key (`args must be an array of strings`). */
  readonly problem: string;
}

/** One checked entry: settings a server can start with, or a broken entry. */
export type ReadEntry =
  | { readonly ok: true; readonly settings: McpServerSettings }
  | { readonly ok: false; readonly broken: BrokenEntry };

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

class EntryProblem extends Error {}

function fail(problem: string): never {
  throw new EntryProblem(problem);
}

function optionalString(entry: Json, key: string): string | undefined {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") fail(`${key} must be a string, got ${typeName(value)}`);
  if (value === "") fail(`${key} must not be empty`);
  return value;
}

function stringList(entry: Json, key: string): readonly string[] {
  const value = entry[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    fail(`${key} must be an array of strings`);
  }
  return value as string[];
}

function stringMap(entry: Json, key: string): Readonly<Record<string, string>> {
  const value = entry[key];
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((item) => typeof item === "string")) {
    fail(`${key} must be an object of strings`);
  }
  return { ...(value as Record<string, string>) };
}

function positiveInteger(entry: Json, key: string, fallback: number, min: number): number {
  const value = entry[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    fail(`${key} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function transportOf(entry: Json, configDir: string): McpServerTransport {
  const command = optionalString(entry, "command");
  const url = optionalString(entry, "url");
  if (command !== undefined && url !== undefined) {
    fail("give either command (a stdio server) or url (a Streamable HTTP server), not both");
  }
  if (command !== undefined) {
    if (entry.headers !== undefined) fail("headers is for a url server, not a command");
    const cwd = optionalString(entry, "cwd");
    return {
      kind: "stdio",
      command,
      args: stringList(entry, "args"),
      env: stringMap(entry, "env"),
      cwd: cwd === undefined ? configDir : isAbsolute(cwd) ? cwd : resolve(configDir, cwd),
    };
  }
  if (url !== undefined) {
    for (const key of ["args", "env", "cwd"]) {
      if (entry[key] !== undefined) fail(`${key} is for a command server, not a url`);
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      fail(`url ${JSON.stringify(url)} is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      fail(`url must be http: or https:, got ${JSON.stringify(parsed.protocol)}`);
    }
    return { kind: "http", url: parsed, headers: stringMap(entry, "headers") };
  }
  return fail("command (a stdio server) or url (a Streamable HTTP server) is required");
}

function settingsOf(
  entry: Json,
  where: string,
  name: { vendor: string; packId: string; fullName: string },
  configDir: string,
): McpServerSettings {
  for (const key of Object.keys(entry)) {
    if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
      fail(`${JSON.stringify(key)} is not a known key (known: ${ENTRY_KEYS.join(", ")})`);
    }
  }
  const transport = transportOf(entry, configDir);
  const trusted = entry.trusted ?? false;
  if (typeof trusted !== "boolean") fail(`trusted must be true or false, got ${typeName(trusted)}`);
  const preludePath = optionalString(entry, "prelude");
  const prelude =
    preludePath === undefined
      ? undefined
      : readPrelude(isAbsolute(preludePath) ? preludePath : resolve(configDir, preludePath));
  if (typeof prelude === "object")
    fail(`prelude ${JSON.stringify(preludePath)}: ${prelude.problem}`);
  const described =
    transport.kind === "stdio"
      ? `the MCP server started as ${transport.command}`
      : `the MCP server at ${transport.url.origin}${transport.url.pathname}`;
  return {
    entry: where,
    ...name,
    description: optionalString(entry, "description") ?? `Tools of ${described}.`,
    trusted,
    prelude,
    transport,
    timeoutMs: positiveInteger(entry, "timeoutMs", MCP_DEFAULTS.timeoutMs, 1),
    connectTimeoutMs: positiveInteger(entry, "connectTimeoutMs", MCP_DEFAULTS.connectTimeoutMs, 1),
    maxMessageBytes: positiveInteger(entry, "maxMessageBytes", MCP_DEFAULTS.maxMessageBytes, 1024),
    maxRestarts: positiveInteger(entry, "maxRestarts", MCP_DEFAULTS.maxRestarts, 0),
  };
}

/**
 * Checks the plugin's options: `{ servers: [...] }`, each entry naming its Pack (`pack`,
 * vendor/name) and a server (`command` for stdio, `url` for Streamable HTTP), in order.
 * Relative `cwd` and `prelude` paths are resolved against `configDir`. An entry whose Pack name
 * reads but whose rest does not is returned as broken (its Pack is unavailable, with the problem as the
 * reason). Throws a McpOptionsError naming the key for problems no Pack can carry: options that
 * are not `{ servers: [...] }`, an entry that is not an object, a missing or malformed `pack`,
 * a Pack named twice.
 */
export function readOptions(options: unknown, configDir: string): readonly ReadEntry[] {
  if (!isObject(options)) {
    throw new McpOptionsError(`options must be an object with servers, got ${typeName(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== "servers") {
      throw new McpOptionsError(`options.${key} is not a known key (known: servers)`);
    }
  }
  const list = options.servers;
  if (!Array.isArray(list)) {
    throw new McpOptionsError(`options.servers must be an array, got ${typeName(list)}`);
  }
  const entries: ReadEntry[] = [];
  const seen = new Map<string, string>();
  for (const [index, entry] of list.entries()) {
    const where = `servers[${index}]`;
    if (!isObject(entry)) {
      throw new McpOptionsError(`${where} must be an object, got ${typeName(entry)}`);
    }
    const pack = entry.pack;
    if (typeof pack !== "string") {
      throw new McpOptionsError(
        `${where}.pack must be a string such as "acme/files", got ${typeName(pack)}`,
      );
    }
    const parsed = parsePackName(pack);
    if (!parsed.ok) {
      throw new McpOptionsError(
        `${where}.pack ${JSON.stringify(pack)} is invalid: ${parsed.reason}`,
      );
    }
    const earlier = seen.get(pack);
    if (earlier !== undefined) {
      throw new McpOptionsError(`${where}.pack ${pack} is already the Pack of ${earlier}`);
    }
    seen.set(pack, where);
    const name = { vendor: parsed.vendor, packId: parsed.name, fullName: pack };
    try {
      entries.push({ ok: true, settings: settingsOf(entry, where, name, configDir) });
    } catch (error) {
      if (!(error instanceof EntryProblem)) throw error;
      entries.push({ ok: false, broken: { entry: where, ...name, problem: error.message } });
    }
  }
  return entries;
}
