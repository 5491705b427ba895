/** How a configured MCP server is reached. */
export type McpServerTransport =
  | {
      /** A local process spoken to over its stdin and stdout (the stdio transport). */
      readonly kind: "stdio";
      /** The program to start (looked up on `PATH` unless it is a path). */
      readonly command: string;
      /** Its arguments, passed as they are. */
      readonly args: readonly string[];
      /** Environment variables laid over the MCP client's safe defaults (`HOME`, `PATH`, ...). */
      readonly env: Readonly<Record<string, string>>;
      /** Its working directory (absolute). */
      readonly cwd: string;
    }
  | {
      /** A server reached over Streamable HTTP. */
      readonly kind: "http";
      /** Its MCP endpoint. */
      readonly url: URL;
      /** Headers sent with every request (such as `Authorization`). */
      readonly headers: Readonly<Record<string, string>>;
    };

/** One configured MCP server, checked: everything the Pack and its connection need. */
export interface McpServerSettings {
  /** Where the entry is in the options, such as `servers[1]`. */
  readonly entry: string;
  /** The Pack's vendor segment. */
  readonly vendor: string;
  /** The Pack id. */
  readonly packId: string;
  /** `{vendor}/{packId}`. */
  readonly fullName: string;
  /** The Pack's description. */
  readonly description: string;
  /** Whether the server's output is trusted (else it reaches the run inside the envelope). */
  readonly trusted: boolean;
  /** The Pack's Lua prelude (the text of the configured file), if any. */
  readonly prelude: string | undefined;
  /** The transport. */
  readonly transport: McpServerTransport;
  /** The longest one tool call may take before it fails and the server is restarted. */
  readonly timeoutMs: number;
  /** The longest starting the server and its initialize handshake may take. */
  readonly connectTimeoutMs: number;
  /** The largest message the server may send; a larger one ends the connection. */
  readonly maxMessageBytes: number;
  /** How many restarts in a row (with no successful call between) before the server stays down. */
  readonly maxRestarts: number;
}

/** The plugin's options as `runvil.config.json` gives them (checked at setup). */
export interface McpPluginOptions {
  /** The MCP servers, one Pack each. */
  readonly servers: readonly McpServerConfig[];
}

/** One MCP server entry of {@link McpPluginOptions}, as written in the configuration. */
export interface McpServerConfig {
  /** The Pack's fully qualified name, `vendor/name` (such as `acme/files`). */
  readonly pack: string;
  /** The Pack's description (default: names the server). */
  readonly description?: string;
  /** stdio: the program to start. */
  readonly command?: string;
  /** stdio: its arguments. */
  readonly args?: readonly string[];
  /** stdio: environment variables over the client's safe defaults. */
  readonly env?: Readonly<Record<string, string>>;
  /** stdio: the working directory (relative to the configuration file's directory). */
  readonly cwd?: string;
  /** Streamable HTTP: the MCP endpoint (`http:` or `https:`). */
  readonly url?: string;
  /** Streamable HTTP: headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Trust the server's output (default false: it reaches the run inside the untrusted envelope). */
  readonly trusted?: boolean;
  /** A Lua file (relative to the configuration file's directory): the Pack's prelude. */
  readonly prelude?: string;
  /** Per tool call, in ms (default 60,000). */
  readonly timeoutMs?: number;
  /** Starting and initializing the server, in ms (default 30,000). */
  readonly connectTimeoutMs?: number;
  /** The largest message the server may send, in bytes (default 10 MiB). */
  readonly maxMessageBytes?: number;
  /** Restarts in a row before the server stays down (default 3). */
  readonly maxRestarts?: number;
}

/** Defaults of the limits (docs/design/mcp.md). */
export const MCP_DEFAULTS = {
  timeoutMs: 60_000,
  connectTimeoutMs: 30_000,
  maxMessageBytes: 10 * 1024 * 1024,
  maxRestarts: 3,
} as const;
