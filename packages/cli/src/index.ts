export {
  type CheckFileReport,
  type CheckOptions,
  checkCommand,
} from "./commands/check";
export {
  CANCELLED_EXIT_CODE,
  CANCELLED_MESSAGE,
  formatRunFailure,
  type RunCommandOptions,
  refusalJson,
  runCommand,
  runResultJson,
  STOPPED_EXIT_CODE,
  STOPPED_MESSAGE,
  TERMINATED_MESSAGE,
} from "./commands/run";
export { type TestOptions, testCommand } from "./commands/test";
export { formatHostError, formatParseError, formatRefusal } from "./format-parse-error";
export {
  type CliHostOptions,
  type CliHostResult,
  configFileFor,
  hostForConfig,
  loadCliHost,
} from "./host/cli-host";
export { CONFIG_FILE_NAME, findConfigFile } from "./host/find-config";
export { officialPlugins, withOfficialPlugins } from "./host/official-plugins";
export type { CliIo, CliOperator } from "./io";
export { losslessJson } from "./lossless-json";
export { type OutlineItemJson, type OutlineJson, outlineJson, renderOutline } from "./outline";
export { executeRun, type RunSides } from "./run/execute-run";
export type { RunEnd, RunHandle, RunListeners } from "./run/run-handle";
export type { RunReport, RunRequest } from "./run/run-request";
export { runCli } from "./run-cli";
export { TERMINAL_PROMPT, terminalBroker } from "./terminal-broker";
export { VERSION } from "./version";
export { CANCEL_GRACE_MS, startWorkerRun, type WorkerRunOptions } from "./worker/worker-run";
