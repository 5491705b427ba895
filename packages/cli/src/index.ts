export type { CheckDiagnostic, DiagnosticSeverity } from "./check/diagnostics";
export {
  type CheckFileReport,
  type CheckOptions,
  checkCommand,
} from "./commands/check";
export {
  CANCELLED_EXIT_CODE,
  type RunCommandOptions,
  runCommand,
  STOPPED_EXIT_CODE,
} from "./commands/run";
export { type TestOptions, testCommand } from "./commands/test";
export { type CliHostOptions, type CliHostResult, loadCliHost } from "./host/cli-host";
export { officialPlugins, withOfficialPlugins } from "./host/official-plugins";
export type { CliIo, CliOperator } from "./io";
export type { OutlineItemJson, OutlineJson } from "./outline";
export { runCli } from "./run-cli";
export { VERSION } from "./version";
