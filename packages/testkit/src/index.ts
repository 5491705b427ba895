export { collectScenarioFiles, ScenarioPathError } from "./collect-files";
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
export { FixtureSearchProvider, fixturePageFetcher } from "./fixture-web";
export { describeIssue, type FormatIssue, ScenarioFormatError } from "./format-error";
export type { DiffLine } from "./line-diff";
export { loadScenarioFile, type ScenarioSource } from "./load-scenarios";
export {
  type CaseResult,
  type CaseStatus,
  checkedCaseResult,
  formatReport,
  type JsonCaseReport,
  type JsonMismatch,
  type JsonReport,
  type ReportOptions,
  skippedCaseResult,
  toJsonReport,
} from "./report";
export { type RunCaseOptions, runScenarioCase } from "./run-case";
export type { ObservedModelRequest, ObservedToolDefinition, RunRecord } from "./run-record";
export { runScenario, ScenarioRunError, type ScenarioRunResult } from "./run-scenario";
export { createScenarioHost, type ScenarioHostSetup } from "./scenario-host";
export type {
  FixtureToolInput,
  ModelReplyInput,
  OperatorInput,
  RunScenarioOptions,
  ScenarioHostInput,
  ScriptedModelInput,
  ScriptedToolCallInput,
  ScriptedUsageInput,
} from "./scenario-input";
export type {
  ErrorExpectation,
  EventExpectation,
  Expectations,
  FixtureTool,
  HostServiceId,
  JsonObject,
  JsonValue,
  ModelFailure,
  ModelReply,
  ModelRequestExpectation,
  OfficialPackId,
  OperatorAnswer,
  RunOutcome,
  ScenarioCase,
  ScenarioFile,
  ScenarioHost,
  ScenarioLimits,
  ScenarioModels,
  ScenarioRun,
  ScenarioWeb,
  ScriptedModelFacts,
  ScriptedToolCall,
  ScriptedUsage,
  TextExpectation,
  ToolDefinitionExpectation,
} from "./scenario-types";
export { ScriptedInputBroker } from "./scripted-input-broker";
export { ScriptedModelProvider } from "./scripted-model-provider";
export { addScenarioCase, ScenarioWriteError } from "./write-scenario";
