import { definePlugin, type PackDefinition, type PluginApi } from "@runvil/sdk";
import { type ReadEntry, readOptions } from "./config/read-options";
import type { McpPluginOptions } from "./config/server-config";
import { ServerLink } from "./server/server-link";
import { mcpTools } from "./tools/mcp-tools";

/** The plugin's name (for the Host's messages). */
const PLUGIN_NAME = "@runvil/plugin-mcp";

function unavailable(
  base: Omit<PackDefinition, "tools" | "start">,
  reason: string,
): PackDefinition {
  return {
    ...base,
    tools: [],
    start() {
      throw new Error(reason);
    },
  };
}

/** Starts one entry's server and gives its Pack (unavailable when it could not start). */
async function packOf(
  item: ReadEntry,
): Promise<{ pack: PackDefinition; link: ServerLink | undefined }> {
  if (!item.ok) {
    const { broken } = item;
    const base = {
      vendor: broken.vendor,
      name: broken.packId,
      description: `The MCP server of entry ${broken.entry} (not usable).`,
    };
    const reason = `MCP server entry ${broken.entry} (${broken.fullName}) is malformed: ${broken.problem}`;
    return { pack: unavailable(base, reason), link: undefined };
  }
  const { settings } = item;
  const link = new ServerLink(settings);
  const base = {
    vendor: settings.vendor,
    name: settings.packId,
    description: settings.description,
    ...(settings.prelude === undefined ? {} : { prelude: settings.prelude }),
    close: () => link.close(),
  };
  try {
    const listing = await link.start();
    return { pack: { ...base, tools: mcpTools(settings, link, listing.tools) }, link };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { pack: unavailable(base, reason), link };
  }
}

/**
 * The plugin that turns MCP servers into Packs (docs/design/mcp.md). Its options,
 * `{ servers: [{ pack: "acme/files", command: "node", args: [...] }, { pack: "acme/api", url:
 * "https://..." }] }`, name one Pack per server. At setup every server is started at once and
 * its tools are listed and registered as the Pack's tools (`{pack}/{tool}`); a server that
 * cannot start, or an entry that is malformed, gives an unavailable Pack with the reason. The
 * servers live until the Host closes.
 */
export const mcpPlugin = definePlugin<McpPluginOptions>({
  name: PLUGIN_NAME,
  async setup(api: PluginApi, options) {
    const entries = readOptions(options, api.configDir ?? process.cwd());
    const started = await Promise.all(entries.map(packOf));
    try {
      for (const { pack } of started) api.addPack(pack);
    } catch (error) {
      await Promise.all(started.map(({ link }) => link?.close()));
      throw error;
    }
  },
});
