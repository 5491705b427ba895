import type { PluginEntry } from "@runvil/host";
import type { IssueSink } from "./field-reader";
import { type FormatIssue, ScenarioFormatError } from "./format-error";
import { formatKeyPath } from "./key-path";
import { readCase } from "./read-case";
import type {
  HostServiceId,
  JsonObject,
  JsonValue,
  OfficialPackId,
  ScenarioCase,
} from "./scenario-types";

/** A `host.fixture_tools` entry, camelCase (see docs/testing.md for every key). */
export interface FixtureToolInput {
  id: string;
  description?: string;
  parameters?: JsonValue;
  structured?: boolean;
  trusted?: boolean;
  declared?: boolean;
  vendor?: string;
  /** The fixed output text (give this or `fails`). */
  returns?: string;
  /** The failure message (give this or `returns`). */
  fails?: string;
}

/** `host`, camelCase. Every key is optional, with the scenario format's defaults. */
export interface ScenarioHostInput {
  packs?: OfficialPackId[];
  services?: HostServiceId[];
  unavailable?: Record<string, string>;
  fixtureTools?: FixtureToolInput[];
  fixturePreludes?: Record<string, string>;
  snapshot?: JsonObject;
  limits?: { logEvents?: number; luaMemoryBytes?: number };
}

/** A tool call in a scripted model reply. */
export interface ScriptedToolCallInput {
  id: string;
  name: string;
  arguments?: JsonValue;
}

/** A scripted reply's token counts (each default 0). */
export interface ScriptedUsageInput {
  input?: number;
  output?: number;
  cachedInput?: number;
  reasoning?: number;
}

/** One scripted model reply: a message, a failed round, or an empty reply. */
export type ModelReplyInput =
  | { text?: string; toolCalls?: ScriptedToolCallInput[]; usage?: ScriptedUsageInput }
  | { fail: { kind: string; reason?: string; message: string } }
  | { empty: { finishReason?: string; usage?: ScriptedUsageInput } };

/** What the scripted provider says of one catalog model (`models.catalog`). */
export interface ScriptedModelInput {
  contextWindow?: number;
  maxOutputTokens?: number;
  tools?: boolean;
  /** USD per million tokens. */
  prices?: { input: number; output: number; cachedInput?: number };
}

/** One operator entry: a text answer, a failed wait, or a wait that never answers. */
export type OperatorInput = string | { fail: string } | { hold: true };

/** Options of {@link runScenario}: a prompt and the inputs of a scenario case, camelCase. */
export interface RunScenarioOptions {
  /** The whole prompt text, frontmatter included (give this or `promptFile`). */
  prompt?: string;
  /** A prompt file, relative to the working directory (give this or `prompt`). */
  promptFile?: string;
  /** The argument string. */
  args?: string;
  /** The Host the run is prepared on (default: every official Pack and service). */
  host?: ScenarioHostInput;
  /** The execution name, seed and start instant. */
  run?: { name?: string; seed?: number; start?: string };
  /** Role bindings and scripted model replies. */
  models?: {
    bind?: Record<string, string>;
    catalog?: Record<string, ScriptedModelInput>;
    replies?: ModelReplyInput[];
  };
  /** Answers to `user-input/ask`, in order. */
  operator?: OperatorInput[];
  /** Fixture pages (url -> text) and search results (query -> text). */
  web?: { pages?: Record<string, string>; search?: Record<string, string> };
  /** Files in the run's store before it starts. */
  store?: Record<string, string>;
  /** Cancel the run this long after it starts. */
  cancelAfterMs?: number;
  /** Stop the run this long after it starts (not provided by the runner yet). */
  stopAfterMs?: number;
  /** Extra plugins for the Host, such as your own Pack's plugin. */
  plugins?: readonly PluginEntry[];
  /** The longest the run may take before it is cancelled and the call rejects (default 10 s). */
  timeoutMs?: number;
}

/** The path runScenario reports its inputs under in a ScenarioFormatError. */
export const RUN_SCENARIO_SOURCE = "runScenario";

/** The scenario case runScenario runs: the options in the scenario format, checked. */
export function scenarioCaseOf(options: RunScenarioOptions): ScenarioCase {
  const issues: FormatIssue[] = [];
  const sink: IssueSink = (path, message) =>
    issues.push({ file: RUN_SCENARIO_SOURCE, keyPath: formatKeyPath(path), message });
  const read = readCase(sink, caseData(options), [], 0, 0, process.cwd());
  if (issues.length > 0 || read === undefined) {
    throw new ScenarioFormatError(RUN_SCENARIO_SOURCE, issues);
  }
  read.expect = {};
  return read;
}

/** The options as the YAML data of one case (snake_case keys, absent keys left out). */
function caseData(options: RunScenarioOptions): Record<string, unknown> {
  const data: Record<string, unknown> = {
    name: RUN_SCENARIO_SOURCE,
    // A placeholder: runScenario checks nothing itself; the caller's assertions do.
    expect: { outcome: "succeeded" },
  };
  put(data, "prompt", options.prompt);
  put(data, "prompt_file", options.promptFile);
  put(data, "args", options.args);
  if (options.host !== undefined) data.host = hostData(options.host);
  put(data, "run", options.run);
  if (options.models !== undefined) {
    const models: Record<string, unknown> = {};
    put(models, "bind", options.models.bind);
    if (options.models.catalog !== undefined) {
      models.catalog = Object.fromEntries(
        Object.entries(options.models.catalog).map(([id, facts]) => {
          const entry: Record<string, unknown> = {};
          put(entry, "context_window", facts.contextWindow);
          put(entry, "max_output_tokens", facts.maxOutputTokens);
          put(entry, "tools", facts.tools);
          if (facts.prices !== undefined) {
            const prices: Record<string, unknown> = {};
            put(prices, "input", facts.prices.input);
            put(prices, "output", facts.prices.output);
            put(prices, "cached_input", facts.prices.cachedInput);
            entry.prices = prices;
          }
          return [id, entry];
        }),
      );
    }
    if (options.models.replies !== undefined) {
      models.replies = options.models.replies.map(replyData);
    }
    data.models = models;
  }
  put(data, "operator", options.operator);
  put(data, "web", options.web);
  put(data, "store", options.store);
  put(data, "cancel_after_ms", options.cancelAfterMs);
  put(data, "stop_after_ms", options.stopAfterMs);
  return data;
}

function hostData(host: ScenarioHostInput): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  put(data, "packs", host.packs);
  put(data, "services", host.services);
  put(data, "unavailable", host.unavailable);
  if (host.fixtureTools !== undefined) data.fixture_tools = host.fixtureTools;
  put(data, "fixture_preludes", host.fixturePreludes);
  put(data, "snapshot", host.snapshot);
  if (host.limits !== undefined) {
    const limits: Record<string, unknown> = {};
    put(limits, "log_events", host.limits.logEvents);
    put(limits, "lua_memory_bytes", host.limits.luaMemoryBytes);
    data.limits = limits;
  }
  return data;
}

function replyData(reply: ModelReplyInput): unknown {
  if ("fail" in reply) return { fail: reply.fail };
  if ("empty" in reply) {
    const empty: Record<string, unknown> = {};
    put(empty, "finish_reason", reply.empty.finishReason);
    put(empty, "usage", usageData(reply.empty.usage));
    return { empty };
  }
  const data: Record<string, unknown> = {};
  put(data, "text", reply.text);
  put(data, "tool_calls", reply.toolCalls);
  put(data, "usage", usageData(reply.usage));
  return data;
}

function usageData(usage: ScriptedUsageInput | undefined): unknown {
  if (usage === undefined) return undefined;
  const data: Record<string, unknown> = {};
  put(data, "input", usage.input);
  put(data, "output", usage.output);
  put(data, "cached_input", usage.cachedInput);
  put(data, "reasoning", usage.reasoning);
  return data;
}

function put(data: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) data[key] = value;
}
