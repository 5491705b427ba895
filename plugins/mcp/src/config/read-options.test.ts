import { describe, expect, it } from "vitest";
import { McpOptionsError, readOptions } from "./read-options";
import { MCP_DEFAULTS } from "./server-config";

function only(entry: Record<string, unknown>) {
  const [read] = readOptions({ servers: [entry] }, "/srv/app");
  return read;
}

describe("readOptions", () => {
  it("reads a stdio entry: cwd relative to the configuration, defaults for the limits", () => {
    expect(
      only({ pack: "acme/files", command: "node", args: ["s.js"], env: { K: "v" }, cwd: "srv" }),
    ).toEqual({
      ok: true,
      settings: {
        entry: "servers[0]",
        vendor: "acme",
        packId: "files",
        fullName: "acme/files",
        description: "Tools of the MCP server started as node.",
        trusted: false,
        prelude: undefined,
        transport: {
          kind: "stdio",
          command: "node",
          args: ["s.js"],
          env: { K: "v" },
          cwd: "/srv/app/srv",
        },
        ...MCP_DEFAULTS,
      },
    });
    const cwd = only({ pack: "acme/files", command: "node" });
    expect(cwd?.ok && cwd.settings.transport).toMatchObject({ cwd: "/srv/app", args: [], env: {} });
  });

  it("reads a url entry with headers, trust and limits", () => {
    const read = only({
      pack: "acme/api",
      url: "https://mcp.example/v1/mcp",
      headers: { Authorization: "Bearer x" },
      trusted: true,
      description: "The API.",
      timeoutMs: 5,
      connectTimeoutMs: 6,
      maxMessageBytes: 2048,
      maxRestarts: 0,
    });
    expect(read?.ok && read.settings).toMatchObject({
      description: "The API.",
      trusted: true,
      timeoutMs: 5,
      connectTimeoutMs: 6,
      maxMessageBytes: 2048,
      maxRestarts: 0,
    });
    expect(read?.ok && read.settings.transport).toEqual({
      kind: "http",
      url: new URL("https://mcp.example/v1/mcp"),
      headers: { Authorization: "Bearer x" },
    });
  });

  it("marks an entry broken, naming the key, when its Pack name reads", () => {
    const problems: [Record<string, unknown>, string][] = [
      [{}, "command (a stdio server) or url (a Streamable HTTP server) is required"],
      [{ command: 3 }, "command must be a string, got number"],
      [{ command: "" }, "command must not be empty"],
      [{ command: "n", env: { A: 1 } }, "env must be an object of strings"],
      [{ command: "n", headers: {} }, "headers is for a url server, not a command"],
      [{ url: "http://x/mcp", cwd: "." }, "cwd is for a command server, not a url"],
      [{ url: "not a url" }, 'url "not a url" is not a URL'],
      [{ url: "file:///tmp/x" }, 'url must be http: or https:, got "file:"'],
      [{ command: "n", trusted: "yes" }, "trusted must be true or false, got string"],
      [{ command: "n", timeoutMs: 0 }, "timeoutMs must be a whole number of at least 1, got 0"],
      [
        { command: "n", maxMessageBytes: 10 },
        "maxMessageBytes must be a whole number of at least 1024, got 10",
      ],
      [
        { command: "n", maxRestarts: 1.5 },
        "maxRestarts must be a whole number of at least 0, got 1.5",
      ],
    ];
    for (const [entry, problem] of problems) {
      expect(only({ pack: "acme/x", ...entry })).toEqual({
        ok: false,
        broken: { entry: "servers[0]", vendor: "acme", packId: "x", fullName: "acme/x", problem },
      });
    }
  });

  it("throws for options that leave no Pack to carry the problem", () => {
    const cases: [unknown, string][] = [
      [undefined, "options must be an object with servers, got undefined"],
      [{ servers: [], extra: 1 }, "options.extra is not a known key (known: servers)"],
      [{ servers: {} }, "options.servers must be an array, got object"],
      [
        { servers: [{ pack: "files", command: "n" }] },
        'servers[0].pack "files" is invalid: a Pack is named vendor/name, such as `acme/files`',
      ],
      [
        { servers: [{ pack: "acme//x", command: "n" }] },
        'servers[0].pack "acme//x" is invalid: a Pack is named vendor/name, such as `acme/files`',
      ],
      [
        { servers: [{ pack: "/x", command: "n" }] },
        'servers[0].pack "/x" is invalid: segments must not be empty',
      ],
    ];
    for (const [options, message] of cases) {
      expect(() => readOptions(options, "/")).toThrow(new McpOptionsError(message));
    }
  });

  it("keeps the configuration's order across good and broken entries", () => {
    const read = readOptions(
      {
        servers: [
          { pack: "a/one", command: "n" },
          { pack: "a/two" },
          { pack: "a/three", url: "http://h/mcp" },
        ],
      },
      "/",
    );
    expect(
      read.map((item) => (item.ok ? item.settings.fullName : `broken ${item.broken.fullName}`)),
    ).toEqual(["a/one", "broken a/two", "a/three"]);
  });
});
