export type { McpPluginOptions, McpServerConfig } from "./config/server-config";
export { mcpPlugin, mcpPlugin as default } from "./plugin";
