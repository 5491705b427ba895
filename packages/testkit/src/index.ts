export { collectScenarioFiles, SCENARIO_EXTENSIONS, ScenarioPathError } from "./collect-files";
export { checkExpectations, type Mismatch } from "./expectations";
export { filterCases } from "./filter";
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
export { type RunCaseOptions, runScenarioCase, unsupportedInputs } from "./run-case";
export type { ObservedModelRequest, ObservedToolDefinition, RunRecord } from "./run-record";
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
  type ScriptedToolCall,
  type TextExpectation,
  type ToolDefinitionExpectation,
} from "./scenario-types";
