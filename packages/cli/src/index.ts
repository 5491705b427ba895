export {
  type CheckFileReport,
  type CheckOptions,
  checkCommand,
  formatParseError,
} from "./commands/check";
export type { CliIo } from "./io";
export { type OutlineItemJson, type OutlineJson, outlineJson, renderOutline } from "./outline";
export { runCli } from "./run-cli";
export { VERSION } from "./version";
