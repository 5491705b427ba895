export {
  type CheckFileReport,
  type CheckOptions,
  checkCommand,
  formatParseError,
} from "./commands/check";
export {
  CANCELLED_EXIT_CODE,
  formatRunFailure,
  type RunCommandOptions,
  runCommand,
  runResultJson,
} from "./commands/run";
export { type TestOptions, testCommand } from "./commands/test";
export type { CliIo } from "./io";
export { losslessJson } from "./lossless-json";
export { type OutlineItemJson, type OutlineJson, outlineJson, renderOutline } from "./outline";
export { runCli } from "./run-cli";
export { VERSION } from "./version";
