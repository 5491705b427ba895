export { collectScenarioFiles, SCENARIO_EXTENSIONS, ScenarioPathError } from "./collect-files";
export {
  type CaseRun,
  DEFAULT_CASE_TIMEOUT_MS,
  type ExecuteCaseOptions,
  executeCase,
  REQUIREMENTS_UNMET,
  type ToolError,
} from "./execute-case";
export { checkExpectations, type Mismatch } from "./expectations";
export { filterCases } from "./filter";
export { fixturePackDescription, fixtureToolDefinition, scenarioPacks } from "./fixture-packs";
export {
  FixtureSearchProvider,
  fixturePageFetcher,
  noPageMessage,
  noResultsMessage,
} from "./fixture-web";
export { describeIssue, type FormatIssue, ScenarioFormatError } from "./format-error";
export { canonicalJson, type JsonDifference, jsonDifference, jsonEqual } from "./json-data";
export { formatKeyPath, type KeyPath } from "./key-path";
export {
  type DiffLine,
  firstDifference,
  lineDiff,
  type RenderDiffOptions,
  renderLineDiff,
  splitLines,
} from "./line-diff";
export { loadScenarioFile, type ScenarioSource } from "./load-scenarios";
export { NONCE_PLACEHOLDER, withNonce, withNonceDeep } from "./nonce";
export { officialPacks } from "./official-packs";
export {
  type CaseResult,
  type CaseStatus,
  checkedCaseResult,
  countResults,
  formatReport,
  type JsonCaseReport,
  type JsonMismatch,
  type JsonReport,
  type ReportOptions,
  skippedCaseResult,
  summaryLine,
  toJsonReport,
} from "./report";
export { type RunCaseOptions, runScenarioCase } from "./run-case";
export type { ObservedModelRequest, ObservedToolDefinition, RunRecord } from "./run-record";
export { runScenario, ScenarioRunError, type ScenarioRunResult } from "./run-scenario";
export { createScenarioHost, type ScenarioHostSetup } from "./scenario-host";
export {
  type FixtureToolInput,
  type ModelReplyInput,
  type OperatorInput,
  RUN_SCENARIO_SOURCE,
  type RunScenarioOptions,
  type ScenarioHostInput,
  type ScriptedModelInput,
  type ScriptedToolCallInput,
  type ScriptedUsageInput,
  scenarioCaseOf,
} from "./scenario-input";
export { SCENARIO_PLUGIN_NAME, scenarioGuardedEntry, scenarioPlugin } from "./scenario-plugins";
export { compileScenarioRegex, SCENARIO_REGEX_FLAGS } from "./scenario-regex";
export {
  boundModelId,
  DEFAULT_FIXTURE_VENDOR,
  DEFAULT_MODEL_ID,
  DEFAULT_RUN_NAME,
  DEFAULT_SEED,
  DEFAULT_START,
  type ErrorExpectation,
  type EventExpectation,
  type Expectations,
  type FixtureTool,
  HOST_SERVICES,
  type HostServiceId,
  type JsonObject,
  type JsonValue,
  type ModelFailure,
  type ModelReply,
  type ModelRequestExpectation,
  OFFICIAL_PACKS,
  type OfficialPackId,
  type OperatorAnswer,
  RUN_OUTCOMES,
  type RunOutcome,
  type ScenarioCase,
  type ScenarioFile,
  type ScenarioHost,
  type ScenarioLimits,
  type ScenarioModels,
  type ScenarioRun,
  type ScenarioWeb,
  type ScriptedModelFacts,
  type ScriptedToolCall,
  type ScriptedUsage,
  type TextExpectation,
  type ToolDefinitionExpectation,
} from "./scenario-types";
export { HELD_WAIT_ENDED, ScriptedInputBroker } from "./scripted-input-broker";
export {
  SCRIPTED_FAILURE_KINDS,
  SCRIPTED_PROVIDER_NAME,
  ScriptedModelProvider,
} from "./scripted-model-provider";
