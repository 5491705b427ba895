import { createHost, type Host, type PreparedRun } from "@runvil/host";
import type { ToolOutput } from "@runvil/sdk";
import { testToolContext } from "@runvil/sdk/testing";
import { mcpPlugin } from "../plugin";

/** A Host with the MCP plugin on `servers`, and a way to call its tools as a run would. */
export interface McpTestHost {
  readonly host: Host;
  /** The prepared run of a prompt declaring `uses` (throws the notice when refused). */
  prepare(uses: readonly string[]): PreparedRun;
  /** Calls a catalog tool of a prompt declaring `uses` (no schema check: the tool's own run). */
  call(
    uses: readonly string[],
    toolId: string,
    args?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ToolOutput>;
}

/** Creates the Host (remember `host.close()`). */
export async function mcpTestHost(
  servers: readonly unknown[],
  configDir?: string,
): Promise<McpTestHost> {
  const host = await createHost({
    plugins: [
      {
        plugin: mcpPlugin,
        options: { servers },
        ...(configDir === undefined ? {} : { configDir }),
      },
    ],
  });
  const prepare = (uses: readonly string[]): PreparedRun => {
    const prepared = host.prepare({
      frontmatter: {
        uses: uses.map((entry) => {
          const [vendor = "", packId = ""] = entry.split("/");
          return { vendor, packId, text: entry, fullName: entry };
        }),
        models: [],
      },
    });
    if (!prepared.ok) throw new Error(prepared.notice);
    return prepared.run;
  };
  return {
    host,
    prepare,
    async call(uses, toolId, args = {}, signal) {
      const tool = prepare(uses).tools.get(toolId);
      if (tool === undefined) throw new Error(`no tool ${toolId}`);
      return tool.run(
        args as never,
        testToolContext({ toolId, ...(signal === undefined ? {} : { signal }) }),
      );
    },
  };
}
