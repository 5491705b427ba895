import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolFailure } from "@runvil/sdk";
import { testToolContext } from "@runvil/sdk/testing";
import { afterAll, describe, expect, it } from "vitest";
import { FAKE_SERVER } from "./test-support/fakes";
import { mcpTestHost } from "./test-support/mcp-host";
import { nodeServer } from "./test-support/servers";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function exited(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe("a server's lifetime", () => {
  it("starts once per Host, serves every run, and ends when the Host closes", async () => {
    const mcp = await mcpTestHost([{ pack: "fake/fake", ...nodeServer(FAKE_SERVER) }]);
    const pid = Number(await mcp.call(["fake/fake"], "fake/pid"));
    // Each call prepares a new run on the same Host: the same process answers.
    await expect(mcp.call(["fake/fake"], "fake/count")).resolves.toBe("2");
    await expect(mcp.call(["fake/fake"], "fake/pid")).resolves.toBe(String(pid));
    expect(alive(pid)).toBe(true);
    const tool = mcp.prepare(["fake/fake"]).tools.get("fake/echo");
    await mcp.host.close();
    expect(await exited(pid)).toBe(true);
    const error = await Promise.resolve()
      .then(() => tool?.run({ text: "late" }, testToolContext({ toolId: "fake/echo" })))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(ToolFailure.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      "fake_echo: the MCP server fake/fake is closed (its Host closed)",
    );
  });

  it("reads the Pack prelude from a Lua file relative to the configuration directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runvil-mcp-prelude-"));
    dirs.push(dir);
    writeFileSync(
      join(dir, "fake.lua"),
      "function ping() return tools.call('fake/echo', { text = 'pong' }) end\n",
    );
    const mcp = await mcpTestHost(
      [{ pack: "fake/fake", prelude: "fake.lua", ...nodeServer(FAKE_SERVER) }],
      dir,
    );
    try {
      expect(mcp.host.packs[0]?.hasPrelude).toBe(true);
      expect(mcp.prepare(["fake/fake"]).catalog.preludes).toEqual([
        {
          pack: "fake",
          source: "function ping() return tools.call('fake/echo', { text = 'pong' }) end\n",
        },
      ]);
    } finally {
      await mcp.host.close();
    }
  });
});

describe("the run's signal", () => {
  it("gathers no listener per call (the client's own go on a signal per call)", async () => {
    const mcp = await mcpTestHost([{ pack: "fake/fake", ...nodeServer(FAKE_SERVER) }]);
    try {
      const controller = new AbortController();
      const added: string[] = [];
      const add = controller.signal.addEventListener.bind(controller.signal);
      let live = 0;
      controller.signal.addEventListener = ((type: string, listener: never, options: never) => {
        added.push(type);
        live += 1;
        add(type, listener, options);
      }) as typeof controller.signal.addEventListener;
      const remove = controller.signal.removeEventListener.bind(controller.signal);
      controller.signal.removeEventListener = ((type: string, listener: never) => {
        live -= 1;
        remove(type, listener);
      }) as typeof controller.signal.removeEventListener;
      for (let i = 0; i < 20; i++) {
        await mcp.call(["fake/fake"], "fake/echo", { text: "x" }, controller.signal);
      }
      expect(added).toHaveLength(20);
      expect(live).toBe(0);
    } finally {
      await mcp.host.close();
    }
  });
});
