import { ToolFailure } from "@runvil/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SERVER, GARBAGE_SERVER } from "./test-support/fakes";
import { type McpTestHost, mcpTestHost } from "./test-support/mcp-host";
import { nodeServer } from "./test-support/servers";

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ToolFailure.isInstance(error)).toBe(true);
  return error as Error;
}

describe("a server that misbehaves during calls", () => {
  let mcp: McpTestHost;
  const uses = ["fake/fake"];
  beforeAll(async () => {
    mcp = await mcpTestHost([
      { pack: "fake/fake", timeoutMs: 1500, ...nodeServer(FAKE_SERVER) },
      { pack: "fake/trusted", trusted: true, ...nodeServer(FAKE_SERVER) },
      { pack: "fake/fragile", maxRestarts: 1, ...nodeServer(FAKE_SERVER) },
      { pack: "fake/other", ...nodeServer(FAKE_SERVER) },
      { pack: "fake/roomy", ...nodeServer(FAKE_SERVER) },
    ]);
  });
  afterAll(() => mcp.host.close());

  it("an isError result is a ToolFailure in fixed words; a trusted server's text is quoted", async () => {
    const untrusted = await failureOf(mcp.call(uses, "fake/fail"));
    expect(untrusted.message).toBe(
      "fake_fail: the MCP server fake/fake reported that the tool failed",
    );
    expect(untrusted.message).not.toContain("secret");
    const trusted = await failureOf(mcp.call(["fake/trusted"], "trusted/fail"));
    expect(trusted.message).toBe("trusted_fail: secret detail: /srv/internal/db.sqlite is locked");
  });

  it("a server that exits mid-call gives a clear error and is restarted on the next call", async () => {
    await expect(mcp.call(uses, "fake/echo", { text: "before" })).resolves.toBe("before");
    const error = await failureOf(mcp.call(uses, "fake/crash"));
    expect(error.message).toBe(
      "fake_crash: the MCP server fake/fake failed during the call: it closed the connection (its process exited or ended its output); it is restarted on the next call",
    );
    // A new process: its count starts again.
    await expect(mcp.call(uses, "fake/count")).resolves.toBe("1");
    await expect(mcp.call(["fake/other"], "other/echo", { text: "still here" })).resolves.toBe(
      "still here",
    );
  });

  it("a server that hangs times out, and the next call gets a fresh server", async () => {
    const error = await failureOf(mcp.call(uses, "fake/hang"));
    expect(error.message).toBe(
      "fake_hang: the MCP server fake/fake failed during the call: it did not answer within 1500 ms; it is restarted on the next call",
    );
    await expect(mcp.call(uses, "fake/count")).resolves.toBe("1");
  });

  it("a server that writes invalid JSON-RPC mid-call says so when the call times out", async () => {
    const error = await failureOf(mcp.call(uses, "fake/garbage"));
    expect(error.message).toBe(
      "fake_garbage: the MCP server fake/fake failed during the call: it did not answer within 1500 ms after sending 1 message that is not valid JSON-RPC; it is restarted on the next call",
    );
    await expect(mcp.call(uses, "fake/echo", { text: "back" })).resolves.toBe("back");
    await expect(mcp.call(["fake/other"], "other/echo", { text: "unmoved" })).resolves.toBe(
      "unmoved",
    );
  });

  it("a 50 MB result ends the connection with a clear error; the next call works", async () => {
    const roomy = ["fake/roomy"];
    const error = await failureOf(mcp.call(roomy, "roomy/huge", { bytes: 50 * 1024 * 1024 }));
    expect(error.message).toBe(
      "roomy_huge: the MCP server fake/roomy failed during the call: it sent a message larger than 10485760 bytes; it is restarted on the next call",
    );
    await expect(mcp.call(roomy, "roomy/huge", { bytes: 1000 })).resolves.toHaveLength(1000);
    await expect(mcp.call(["fake/other"], "other/echo", { text: "unmoved" })).resolves.toBe(
      "unmoved",
    );
  });

  it("restarts are bounded: a server that keeps stopping stays down", async () => {
    const crash = () => failureOf(mcp.call(["fake/fragile"], "fragile/crash"));
    expect((await crash()).message).toContain("it is restarted on the next call");
    // The one restart allowed: it starts, and the call crashes it again.
    expect((await crash()).message).toContain("it closed the connection");
    expect((await crash()).message).toBe(
      "fragile_crash: the MCP server fake/fragile stopped 2 times in a row and is not restarted again until its Host restarts",
    );
    await expect(mcp.call(["fake/other"], "other/echo", { text: "fine" })).resolves.toBe("fine");
  });

  it("a cancelled call fails as cancelled", async () => {
    const controller = new AbortController();
    const pending = mcp.call(["fake/other"], "other/hang", {}, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await failureOf(pending)).message).toBe("other_hang: the call was cancelled");
    await expect(mcp.call(["fake/other"], "other/echo", { text: "after" })).resolves.toBe("after");
  });
});

describe("a server whose listing breaks the rules", () => {
  let mcp: McpTestHost;
  beforeAll(async () => {
    mcp = await mcpTestHost([{ pack: "fake/weird", ...nodeServer(FAKE_SERVER, ["weird"]) }]);
  });
  afterAll(() => mcp.host.close());

  it("drops and logs names that break the tool id rule or repeat, as the Host does", () => {
    const dropped = mcp.host.dropped.map(({ tool, reason }) => [tool, reason]);
    expect(dropped).toEqual([
      [
        "weird/Upper",
        "a Pack's tool id is malformed (segments may contain only lowercase ASCII letters, digits, '-', '_', '.'); dropped",
      ],
      [
        "weird/has space",
        "a Pack's tool id is malformed (segments may contain only lowercase ASCII letters, digits, '-', '_', '.'); dropped",
      ],
      ["weird/echo", "a Pack's tool id repeats another of its tools; dropped"],
    ]);
    // The entry with no name is skipped: no tool, and nothing in the log names it.
    expect([...(mcp.host.packs[0]?.tools ?? [])].sort()).toEqual(
      [
        "weird/echo",
        "weird/fail",
        "weird/crash",
        "weird/hang",
        "weird/huge",
        "weird/garbage",
        "weird/count",
        "weird/pid",
        "weird/meta",
        "weird/scalar",
        "weird/a.b",
        "weird/a_b",
      ].sort(),
    );
  });

  it("keeps a non-object schema out of the offering, callable by id, and one of two wire-name twins", async () => {
    const run = mcp.prepare(["fake/weird"]);
    const wire = Object.fromEntries(run.catalog.tools.map((tool) => [tool.id, tool.wireName]));
    expect(wire["weird/scalar"]).toBeNull();
    expect(wire["weird/a.b"]).toBe("weird_a_b");
    expect(wire["weird/a_b"]).toBeNull();
    expect(run.catalog.tools.find((tool) => tool.id === "weird/scalar")?.parameters).toBe("scalar");
    await expect(mcp.call(["fake/weird"], "weird/echo", { text: "one" })).resolves.toBe("one");
  });
});

describe("servers that cannot start", () => {
  let mcp: McpTestHost;
  beforeAll(async () => {
    mcp = await mcpTestHost([
      { pack: "bad/garbage", connectTimeoutMs: 1000, ...nodeServer(GARBAGE_SERVER) },
      { pack: "bad/missing", command: "runvil-no-such-mcp-server" },
      { pack: "bad/exits", command: process.execPath, args: ["-e", "process.exit(2)"] },
      { pack: "bad/args", command: "node", args: "--version" },
      { pack: "bad/both", command: "node", url: "http://127.0.0.1:9/mcp" },
      { pack: "bad/typo", command: "node", argz: [] },
      { pack: "bad/prelude", command: "node", prelude: "./no-such.lua" },
      { pack: "ok/fake", ...nodeServer(FAKE_SERVER) },
    ]);
  });
  afterAll(() => mcp.host.close());

  it("makes each one's Pack unavailable with a reason naming the server or entry", () => {
    const failures = Object.fromEntries(
      mcp.host.packs.map((pack) => [pack.fullName, pack.startFailure]),
    );
    expect(failures).toEqual({
      "bad/garbage":
        "the MCP server bad/garbage could not be started: it did not answer within 1000 ms after sending 2 messages that are not valid JSON-RPC",
      "bad/missing":
        'the MCP server bad/missing could not be started: the command "runvil-no-such-mcp-server" was not found',
      "bad/exits":
        "the MCP server bad/exits could not be started: it closed the connection (its process exited or ended its output)",
      "bad/args":
        "MCP server entry servers[3] (bad/args) is malformed: args must be an array of strings",
      "bad/both":
        "MCP server entry servers[4] (bad/both) is malformed: give either command (a stdio server) or url (a Streamable HTTP server), not both",
      "bad/typo": `MCP server entry servers[5] (bad/typo) is malformed: "argz" is not a known key (known: pack, description, command, args, env, cwd, url, headers, trusted, prelude, timeoutMs, connectTimeoutMs, maxMessageBytes, maxRestarts)`,
      "bad/prelude":
        'MCP server entry servers[6] (bad/prelude) is malformed: prelude "./no-such.lua": no such file',
      "ok/fake": null,
    });
  });

  it("refuses a prompt that declares one, with the reason in the notice; the others serve", async () => {
    const refused = mcp.host.prepare({
      frontmatter: {
        uses: [{ text: "bad/missing", vendor: "bad", packId: "missing", fullName: "bad/missing" }],
        models: [],
      },
    });
    expect(refused).toEqual({
      ok: false,
      notice:
        'the environment cannot satisfy this prompt:\n- missing is unavailable: the MCP server bad/missing could not be started: the command "runvil-no-such-mcp-server" was not found',
    });
    await expect(mcp.call(["ok/fake"], "fake/echo", { text: "up" })).resolves.toBe("up");
  });
});

describe("options that leave no Pack to carry the problem", () => {
  it("fails the plugin's setup with a message naming the key", async () => {
    const cases: [unknown, string][] = [
      [
        [{ pack: "Acme/x", command: "node" }],
        "servers[0].pack \"Acme/x\" is invalid: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
      ],
      [
        [{ command: "node" }],
        'servers[0].pack must be a string such as "acme/files", got undefined',
      ],
      [
        [
          { pack: "a/b", command: "node" },
          { pack: "a/b", command: "node" },
        ],
        "servers[1].pack a/b is already the Pack of servers[0]",
      ],
      [["node"], "servers[0] must be an object, got string"],
    ];
    for (const [servers, problem] of cases) {
      await expect(mcpTestHost(servers as unknown[])).rejects.toThrow(
        `plugin @runvil/plugin-mcp: setup failed: ${problem}`,
      );
    }
  });
});
