import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestHost, mcpTestHost } from "./test-support/mcp-host";
import { nodeServer, referenceServer } from "./test-support/servers";

describe("server-filesystem and server-memory over stdio", () => {
  let dir: string;
  let mcp: McpTestHost;
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "runvil-mcp-ref-")));
    writeFileSync(join(dir, "notes.txt"), "first line\n");
    mcp = await mcpTestHost(
      [
        // cwd defaults to the configuration's directory, so "." is that directory.
        { pack: "ref/files", ...nodeServer(referenceServer("filesystem"), ["."]) },
        {
          pack: "ref/memory",
          trusted: true,
          env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
          ...nodeServer(referenceServer("memory")),
        },
      ],
      dir,
    );
  });
  afterAll(async () => {
    await mcp.host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the filesystem server in the configuration's directory", async () => {
    await expect(mcp.call(["ref/files"], "files/list_allowed_directories")).resolves.toBe(
      `Allowed directories:\n${dir}`,
    );
  });

  it("reads and writes files through the filesystem server's tools", async () => {
    await expect(
      mcp.call(["ref/files"], "files/read_text_file", { path: join(dir, "notes.txt") }),
    ).resolves.toBe("first line\n");
    await mcp.call(["ref/files"], "files/write_file", {
      path: join(dir, "out.txt"),
      content: "written by runvil",
    });
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("written by runvil");
  });

  it("keeps a filesystem refusal out of the message of an untrusted server", async () => {
    const error = await mcp
      .call(["ref/files"], "files/read_text_file", { path: "/etc/hostname" })
      .catch((caught: unknown) => caught as Error);
    expect((error as Error).message).toBe(
      "files_read_text_file: the MCP server ref/files reported that the tool failed",
    );
  });

  it("gives the trusted memory server's tools structured outputs", async () => {
    const run = mcp.prepare(["ref/memory"]);
    expect(run.tools.get("memory/read_graph")?.output).toBe("structured");
    await mcp.call(["ref/memory"], "memory/create_entities", {
      entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
    });
    await expect(mcp.call(["ref/memory"], "memory/read_graph")).resolves.toEqual({
      entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
      relations: [],
    });
  });
});
