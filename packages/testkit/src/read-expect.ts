import {
  describeValue,
  type Fields,
  field,
  hadUnknownKeys,
  has,
  type IssueSink,
  readChoice,
  readInteger,
  readJson,
  readJsonObject,
  readMapping,
  readRegex,
  readString,
  readStringList,
  requireKeys,
} from "./field-reader";
import type { KeyPath } from "./key-path";
import { readStoreFiles } from "./read-inputs";
import {
  type ErrorExpectation,
  type EventExpectation,
  type Expectations,
  type ModelRequestExpectation,
  RUN_OUTCOMES,
  type TextExpectation,
  type ToolDefinitionExpectation,
  USAGE_KEYS,
} from "./scenario-types";

/** The keys of `expect`, in the order the checker reports them. */
export const EXPECT_KEYS = [
  "parse_error",
  "outcome",
  "error",
  "result",
  "result_matches",
  "checkpoints",
  "model_requests",
  "events",
  "store",
  "var",
  "usage",
] as const;

const MESSAGE_KEYS = ["message", "message_contains", "message_matches"] as const;
const PARSE_ERROR_KEYS = ["kind", ...MESSAGE_KEYS] as const;
const ERROR_KEYS = [...PARSE_ERROR_KEYS, "cause_contains"] as const;
const MODEL_REQUEST_KEYS = ["tools", "messages", "tool_definitions"] as const;
const TOOL_DEFINITION_KEYS = ["name", "description", "parameters"] as const;
const RUN_ONLY_KEYS = ["result", "result_matches", "error", "outcome"] as const;

/** Reads `expect`. */
export function readExpectations(sink: IssueSink, value: unknown, path: KeyPath): Expectations {
  const expect: Expectations = {};
  const fields = readMapping(sink, value, path, EXPECT_KEYS);
  if (fields === undefined) return expect;
  if (Object.keys(fields).length === 0) {
    sink(path, "checks nothing: give at least one key, such as outcome: succeeded");
  }
  const at = (key: string): KeyPath => [...path, key];
  if (has(fields, "result")) {
    const result = readString(sink, field(fields, "result"), at("result"));
    if (result !== undefined) expect.result = result;
  }
  if (has(fields, "result_matches")) {
    const source = readRegex(sink, field(fields, "result_matches"), at("result_matches"));
    if (source !== undefined) expect.resultMatches = source;
  }
  if (has(fields, "error")) {
    const error = readErrorExpectation(sink, field(fields, "error"), at("error"), ERROR_KEYS);
    if (error !== undefined) expect.error = error;
  }
  if (has(fields, "parse_error")) {
    const parseError = readErrorExpectation(
      sink,
      field(fields, "parse_error"),
      at("parse_error"),
      PARSE_ERROR_KEYS,
    );
    if (parseError !== undefined) expect.parseError = parseError;
  }
  if (has(fields, "outcome")) {
    const outcome = readChoice(sink, field(fields, "outcome"), at("outcome"), RUN_OUTCOMES);
    if (outcome !== undefined) expect.outcome = outcome;
  }
  if (has(fields, "checkpoints")) {
    const checkpoints = readStringList(sink, field(fields, "checkpoints"), at("checkpoints"));
    if (checkpoints !== undefined) expect.checkpoints = checkpoints;
  }
  if (has(fields, "model_requests")) {
    const requests = readModelRequests(sink, field(fields, "model_requests"), at("model_requests"));
    if (requests !== undefined) expect.modelRequests = requests;
  }
  if (has(fields, "events")) {
    const events = readEvents(sink, field(fields, "events"), at("events"));
    if (events !== undefined) expect.events = events;
  }
  if (has(fields, "store"))
    expect.store = readStoreFiles(sink, field(fields, "store"), at("store"));
  if (has(fields, "var")) {
    const data = readJson(sink, field(fields, "var"), at("var"));
    if (data !== undefined) expect.var = data;
  }
  if (has(fields, "usage")) {
    const usage = readUsageExpectation(sink, field(fields, "usage"), at("usage"));
    if (usage !== undefined) expect.usage = usage;
  }
  checkCombinations(sink, fields, path);
  return expect;
}

/** `expect.usage`: whole counts ≥ 0, and `cost_usd` as decimal text or null. */
function readUsageExpectation(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): Record<string, number | string | null> | undefined {
  const fields = readMapping(sink, value, path, USAGE_KEYS);
  if (fields === undefined || hadUnknownKeys(fields)) return undefined;
  const usage: Record<string, number | string | null> = {};
  for (const key of USAGE_KEYS) {
    if (!has(fields, key)) continue;
    const given = field(fields, key);
    if (key === "cost_usd") {
      if (given === null || (typeof given === "string" && /^\d+(\.\d*[1-9])?$/.test(given))) {
        usage[key] = given;
      } else {
        sink(
          [...path, key],
          `must be a dollar amount as text without trailing zeros, such as "0.0042", or null for an unknown cost, got ${describeValue(given)}`,
        );
      }
      continue;
    }
    const count = readInteger(sink, given, [...path, key], 0);
    if (count !== undefined) usage[key] = count;
  }
  return usage;
}

function checkCombinations(sink: IssueSink, fields: Fields, path: KeyPath): void {
  if (has(fields, "parse_error")) {
    for (const key of RUN_ONLY_KEYS) {
      if (has(fields, key)) {
        sink(
          [...path, key],
          `cannot hold beside parse_error: a prompt that fails to parse never runs`,
        );
      }
    }
  }
  if (has(fields, "error") && field(fields, "outcome") === "succeeded") {
    sink([...path, "outcome"], "contradicts error: a run that fails does not succeed");
  }
}

function readErrorExpectation(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  keys: readonly string[],
): ErrorExpectation | undefined {
  const fields = readMapping(sink, value, path, keys);
  if (fields === undefined) return undefined;
  const given = MESSAGE_KEYS.filter((key) => has(fields, key));
  if (given.length > 1) {
    sink(
      path,
      `gives ${given.join(" and ")}; give at most one of message, message_contains, message_matches`,
    );
  }
  const expectation: ErrorExpectation = {};
  const at = (key: string): KeyPath => [...path, key];
  if (has(fields, "kind")) {
    const kind = readString(sink, field(fields, "kind"), at("kind"), {
      nonEmpty: true,
      singleLine: true,
    });
    if (kind !== undefined) expectation.kind = kind;
  }
  if (has(fields, "message")) {
    const message = field(fields, "message");
    if (typeof message === "string" && /[\r\n]/.test(message)) {
      sink(
        at("message"),
        "is compared with the first line of the message, so it must be one line; use message_contains or message_matches for more",
      );
    } else {
      const text = readString(sink, message, at("message"));
      if (text !== undefined) expectation.message = text;
    }
  }
  if (has(fields, "message_contains")) {
    const text = readContains(sink, field(fields, "message_contains"), at("message_contains"));
    if (text !== undefined) expectation.messageContains = text;
  }
  if (has(fields, "message_matches")) {
    const source = readRegex(sink, field(fields, "message_matches"), at("message_matches"));
    if (source !== undefined) expectation.messageMatches = source;
  }
  if (has(fields, "cause_contains")) {
    const text = readContains(sink, field(fields, "cause_contains"), at("cause_contains"));
    if (text !== undefined) expectation.causeContains = text;
  }
  return expectation satisfies TextExpectation;
}

function readContains(sink: IssueSink, value: unknown, path: KeyPath): string | undefined {
  const text = readString(sink, value, path);
  if (text === "") {
    sink(path, "must not be empty: every text contains the empty string");
    return undefined;
  }
  return text;
}

function readModelRequests(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): ModelRequestExpectation[] | undefined {
  if (!Array.isArray(value)) {
    sink(
      path,
      `must be a list (one entry per model request; [] for none), got ${describeValue(value)}`,
    );
    return undefined;
  }
  const requests: ModelRequestExpectation[] = [];
  value.forEach((item: unknown, index) => {
    const at = [...path, index];
    const fields = readMapping(sink, item, at, MODEL_REQUEST_KEYS);
    const request: ModelRequestExpectation = {};
    requests.push(request);
    if (fields === undefined) return;
    if (has(fields, "tools")) {
      const tools = readStringList(sink, field(fields, "tools"), [...at, "tools"], {
        nonEmpty: true,
      });
      if (tools !== undefined) request.tools = tools;
    }
    if (has(fields, "messages")) {
      const count = readInteger(sink, field(fields, "messages"), [...at, "messages"], 0);
      if (count !== undefined) request.messages = count;
    }
    if (has(fields, "tool_definitions")) {
      const definitions = readToolDefinitions(sink, field(fields, "tool_definitions"), [
        ...at,
        "tool_definitions",
      ]);
      if (definitions !== undefined) request.toolDefinitions = definitions;
    }
  });
  return requests;
}

function readToolDefinitions(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): ToolDefinitionExpectation[] | undefined {
  if (!Array.isArray(value)) {
    sink(path, `must be a list of tool definitions, got ${describeValue(value)}`);
    return undefined;
  }
  const definitions: ToolDefinitionExpectation[] = [];
  value.forEach((item: unknown, index) => {
    const at = [...path, index];
    const fields = readMapping(sink, item, at, TOOL_DEFINITION_KEYS);
    const definition: ToolDefinitionExpectation = {};
    definitions.push(definition);
    if (fields === undefined) return;
    if (has(fields, "name")) {
      const name = readString(sink, field(fields, "name"), [...at, "name"], { nonEmpty: true });
      if (name !== undefined) definition.name = name;
    }
    if (has(fields, "description")) {
      const description = readString(sink, field(fields, "description"), [...at, "description"]);
      if (description !== undefined) definition.description = description;
    }
    if (has(fields, "parameters")) {
      const parameters = readJson(sink, field(fields, "parameters"), [...at, "parameters"]);
      if (parameters !== undefined) definition.parameters = parameters;
    }
  });
  return definitions;
}

function readEvents(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): EventExpectation[] | undefined {
  if (!Array.isArray(value)) {
    sink(path, `must be a list of events, got ${describeValue(value)}`);
    return undefined;
  }
  if (value.length === 0) {
    sink(path, "checks nothing: list at least one event, or leave the key out");
    return undefined;
  }
  const events: EventExpectation[] = [];
  value.forEach((item: unknown, index) => {
    const at = [...path, index];
    const event = readJsonObject(sink, item, at);
    if (event === undefined) return;
    if (!requireKeys(sink, event, at, ["type"])) return;
    const type = readString(sink, event.type, [...at, "type"], { nonEmpty: true });
    if (type !== undefined) events.push({ ...event, type });
  });
  return events;
}
