export { HostConfigError } from "./config/host-config-error";
export {
  findHostConfig,
  type LoadHostConfigOptions,
  loadHostConfig,
  type ProviderModuleEntry,
  type ProviderModuleLoader,
  readHostConfig,
} from "./config/load-host-config";
export {
  HOST_CONFIG_FILE,
  type HostConfig,
  type OtelConfig,
  type PluginConfig,
} from "./config/parse-host-config";
export {
  InputFileError,
  type InputFileOptions,
  type InputFileProblem,
  MAX_INPUT_FILE_BYTES,
  readInputFile,
} from "./files/read-input-file";
export { createHost, type Host, type HostPack } from "./host";
export type { HostOptions, PluginEntry, PrepareRunOptions } from "./host-options";
export { HostSetupError } from "./host-setup-error";
export { modelPortFor, type RunModelPortOptions } from "./model-port-for";
export type {
  BindingSource,
  ModelRoleRequirement,
  PreparedModelRole,
  RoleSettingsRequirement,
} from "./prepare/bind-models";
export type { PromptRequirements } from "./prepare/prepare-run";
export type { PreparedPack, PreparedRun, PrepareResult } from "./prepare/prepared-run";
export type { CatalogModel } from "./setup/model-catalog";
export type { HostDroppedTool } from "./setup/pack-registry";
export { type RunDispatcherOptions, toolDispatcherFor } from "./tool-dispatcher-for";
