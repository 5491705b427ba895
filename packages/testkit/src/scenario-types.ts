/**
 * The typed form of a scenario file (see docs/testing.md). Keys are camelCase here; the YAML
 * spelling of each key is given in its doc comment. Every default the format states is already
 * applied by the loader, so a runner never has to know a default.
 */

/** JSON data: what YAML values of free-form keys (`var`, `arguments`, `parameters`...) become. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The official Packs a scenario Host can serve (`host.packs`). */
export const OFFICIAL_PACKS = ["web", "user-input", "subagents"] as const;

/** One official Pack id. */
export type OfficialPackId = (typeof OFFICIAL_PACKS)[number];

/** The services a scenario Host can provide (`host.services`), without the `runvil/` vendor. */
export const HOST_SERVICES = ["input-broker", "search-provider"] as const;

/** One Host service id. */
export type HostServiceId = (typeof HOST_SERVICES)[number];

/** The three run outcomes (`expect.outcome`). */
export const RUN_OUTCOMES = ["succeeded", "failed", "cancelled"] as const;

/** A run outcome. */
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Default execution name (`run.name`). */
export const DEFAULT_RUN_NAME = "run-1";

/** Default run seed (`run.seed`). */
export const DEFAULT_SEED = 0;

/** Default start instant (`run.start`). */
export const DEFAULT_START = "2000-01-01T00:00:00Z";

/** Catalog model id every role is bound to unless `models.bind` names another. */
export const DEFAULT_MODEL_ID = "scripted-model";

/** Default vendor of a declared fixture Pack (`host.fixture_tools[].vendor`). */
export const DEFAULT_FIXTURE_VENDOR = "fixture";

/** A loaded scenario file. */
export interface ScenarioFile {
  /** The path the file was loaded from, as given. */
  path: string;
  /** The cases, in file order. */
  cases: ScenarioCase[];
}

/** One case of a scenario file: a prompt, everything outside it scripted, and its expectations. */
export interface ScenarioCase {
  /** Zero-based position in the file's `cases` list. */
  index: number;
  /** 1-based line of the case's first key in the file. */
  line: number;
  /** `name`: unique within the file, one line. */
  name: string;
  /** `spec`: where the rule is stated (free text). */
  spec?: string;
  /** `skip`: present when the case is reported as skipped; the reason. */
  skip?: string;
  /**
   * `prompt`: the whole prompt file, frontmatter included; or the text of the file named by
   * `prompt_file` (a path relative to the scenario file), so a scenario can test a prompt that
   * lives in its own `.md` file.
   */
  prompt: string;
  /** `prompt_file`, resolved to an absolute path, when the case names one. */
  promptPath?: string;
  /** `args`: the argument string; absent when the case gives none. */
  args?: string;
  /** `host`: the Host the run is prepared on. */
  host: ScenarioHost;
  /** `run`: the run's inputs. */
  run: ScenarioRun;
  /** `models`: role bindings and scripted replies. */
  models: ScenarioModels;
  /** `operator`: answers to user-input/ask, in order (default none). */
  operator: OperatorAnswer[];
  /** `web`: fixture pages and search results. */
  web: ScenarioWeb;
  /** `store`: files in the run's store before it starts (default none). */
  store: Record<string, string>;
  /** `cancel_after_ms`: cancel the run this long after it starts. */
  cancelAfterMs?: number;
  /** `stop_after_ms`: stop the run (not a cancel) this long after it starts. */
  stopAfterMs?: number;
  /** `expect`: what the run must produce. */
  expect: Expectations;
}

/** `host`: the Host a case's run is prepared on. */
export interface ScenarioHost {
  /** `packs`: official Packs served; default all three. */
  packs: OfficialPackId[];
  /** `services`: services provided; default both. */
  services: HostServiceId[];
  /** `unavailable`: Pack id -> the reason the Host reports it unable to serve (default none). */
  unavailable: Record<string, string>;
  /** `fixture_tools`: extra catalog tools from fixture Packs (default none). */
  fixtureTools: FixtureTool[];
  /** `fixture_preludes`: Pack id -> prelude Lua source of a fixture Pack served like an official one. */
  fixturePreludes: Record<string, string>;
  /** `snapshot`: the ui() snapshot; absent: no ui global. */
  snapshot?: JsonObject;
  /** `limits`: run limits; absent keys keep the Host's defaults. */
  limits: ScenarioLimits;
}

/** `host.limits`. */
export interface ScenarioLimits {
  /** `log_events`: the log event quota of each section VM. */
  logEvents?: number;
  /** `lua_memory_bytes`: the Lua memory limit of a section VM. */
  luaMemoryBytes?: number;
}

/** One `host.fixture_tools` entry. */
export interface FixtureTool {
  /** `id`: the tool id. */
  id: string;
  /** The tool's Pack: the first segment of `id`. */
  packId: string;
  /** `description` (default ""). */
  description: string;
  /** `parameters`: any JSON (default `{ "type": "object", "properties": {} }`). */
  parameters: JsonValue;
  /** `structured`: output kind structured instead of plain (default false). */
  structured: boolean;
  /** `trusted`: trust level of its output (default true). */
  trusted: boolean;
  /** `declared`: a third-party Pack, present only when the prompt declares `<vendor>/<pack>`. */
  declared: boolean;
  /** `vendor`: vendor of a declared fixture Pack (default "fixture"). */
  vendor: string;
  /** `returns` (fixed output text) or `fails` (failure message). */
  behaviour: { kind: "returns"; text: string } | { kind: "fails"; message: string };
}

/** `run`: the run's inputs. */
export interface ScenarioRun {
  /** `name`: the execution name (sys.execution); default "run-1". */
  name: string;
  /**
   * `seed`: the run seed (the nonce derives from it); default 0. A whole number, or a text of
   * decimal digits up to 2^64 − 1 for a seed past 2^53 − 1 (what YAML numbers hold exactly).
   */
  seed: number | string;
  /** `start`: the start instant (sys.when), as written; default 2000-01-01T00:00:00Z. */
  start: string;
  /** `start` as milliseconds since the Unix epoch. */
  startEpochMs: number;
}

/** `models`: role bindings, the scripted catalog and scripted replies. */
export interface ScenarioModels {
  /** `bind`: role label -> catalog model id; a role not listed is bound to "scripted-model". */
  bind: Record<string, string>;
  /**
   * `catalog`: catalog id -> the facts the scripted provider registers for it, over the
   * defaults (200,000-token window, 32,000 output tokens, tools); its ids join the catalog.
   * Absent from the file: `{}`.
   */
  catalog?: Record<string, ScriptedModelFacts>;
  /** `replies`: consumed in order, one per model round, whatever the role (default none). */
  replies: ModelReply[];
}

/** `models.catalog.{id}`: what the scripted provider says of one model (each key optional). */
export interface ScriptedModelFacts {
  /** `context_window`: tokens, whole ≥ 1. */
  contextWindow?: number;
  /** `max_output_tokens`: tokens, whole, 1 to the context window. */
  maxOutputTokens?: number;
  /** `tools`: whether it takes tool definitions. */
  tools?: boolean;
  /** `prices`: USD per million tokens (`input`, `output`, `cached_input?`); absent: unknown. */
  prices?: ScriptedPrices;
}

/** `models.catalog.{id}.prices`: US dollars per million tokens (the sdk's ModelPrices). */
export interface ScriptedPrices {
  /** `input`. */
  inputPerMillion: number;
  /** `output`. */
  outputPerMillion: number;
  /** `cached_input`: input tokens read from a prompt cache; absent: the input price. */
  cachedInputPerMillion?: number;
}

/** `usage` of a scripted reply: the round's token counts (default 0 each). */
export interface ScriptedUsage {
  /** `input`. */
  input: number;
  /** `output`. */
  output: number;
  /** `cached_input`: input tokens read from a prompt cache (counted in `input` too). */
  cachedInput?: number;
  /** `reasoning`: output tokens spent on reasoning (counted in `output` too). */
  reasoning?: number;
}

/** One scripted model reply. */
export type ModelReply =
  | { kind: "message"; text: string; toolCalls: ScriptedToolCall[]; usage?: ScriptedUsage }
  | { kind: "fail"; failure: ModelFailure }
  | { kind: "empty"; finishReason?: string; usage?: ScriptedUsage };

/** A tool call in a scripted reply (`tool_calls[]`). */
export interface ScriptedToolCall {
  /** `id`. */
  id: string;
  /** `name`: the wire name the model calls. */
  name: string;
  /** `arguments`: any JSON, so refusals can be tested (default `{}`). */
  arguments: JsonValue;
}

/** `fail`: the model round fails. */
export interface ModelFailure {
  /** `kind`: `context_exhausted` or `internal` (the kinds a model provider may fail with). */
  kind: "context_exhausted" | "internal";
  /** `reason`: only `provider`, only for `context_exhausted` (the Engine sets it anyway). */
  reason?: string;
  /** `message`. */
  message: string;
}

/** One `operator` entry. */
export type OperatorAnswer =
  | { kind: "answer"; text: string }
  | { kind: "fail"; message: string }
  | { kind: "hold" };

/** `web`: fixture web data. */
export interface ScenarioWeb {
  /** `pages`: url -> page text. */
  pages: Record<string, string>;
  /** `search`: query -> results text. */
  search: Record<string, string>;
}

/** `expect`: every key given must hold. */
export interface Expectations {
  /** `result`: exact run result text (`NONCE` stands for the run's nonce). */
  result?: string;
  /** `result_matches`: regular expression source, tested on the whole result. */
  resultMatches?: string;
  /** `error`: the run fails with this error. */
  error?: ErrorExpectation;
  /** `parse_error`: the prompt fails to parse with this error. */
  parseError?: TextExpectation;
  /** `outcome`. */
  outcome?: RunOutcome;
  /** `checkpoints`: exactly these log checkpoints, in order. */
  checkpoints?: string[];
  /** `model_requests`: exactly this many requests, each checked on the keys given. */
  modelRequests?: ModelRequestExpectation[];
  /** `events`: these events in this relative order, others may sit between. */
  events?: EventExpectation[];
  /** `store`: exactly these files after the run. */
  store?: Record<string, string>;
  /** `var`: var as read back at the end of the run (JSON deep equality). */
  var?: JsonValue;
  /** `usage`: the run's total tokens and cost, on the keys given (snake_case, {@link USAGE_KEYS}). */
  usage?: Record<string, number | string | null>;
}

/**
 * The keys of `expect.usage` (the run result's `usage.total`): whole counts, and `cost_usd`
 * (decimal text in US dollars, or null for an unknown cost).
 */
export const USAGE_KEYS = [
  "rounds",
  "input_tokens",
  "output_tokens",
  "cached_input_tokens",
  "reasoning_tokens",
  "cost_usd",
  "unpriced_rounds",
] as const;

/** How an error's kind and message are expected (`parse_error`, and the base of `error`). */
export interface TextExpectation {
  /** `kind`. */
  kind?: string;
  /** `message`: the exact first line of the message. */
  message?: string;
  /** `message_contains`: a substring of the whole message. */
  messageContains?: string;
  /** `message_matches`: regular expression source, tested on the whole message. */
  messageMatches?: string;
}

/** `error`: a run error. */
export interface ErrorExpectation extends TextExpectation {
  /** `cause_contains`: a substring of the run error's cause text. */
  causeContains?: string;
}

/** One `model_requests` entry. */
export interface ModelRequestExpectation {
  /** `tools`: wire names advertised, in order. */
  tools?: string[];
  /** `messages`: number of message records sent. */
  messages?: number;
  /** `tool_definitions`: exactly this many definitions, in order, each checked on the keys given. */
  toolDefinitions?: ToolDefinitionExpectation[];
}

/** One `tool_definitions` entry. */
export interface ToolDefinitionExpectation {
  /** `name`. */
  name?: string;
  /** `description`. */
  description?: string;
  /** `parameters`: compared as JSON data. */
  parameters?: JsonValue;
}

/** One `events` entry: `type` plus any keys, each compared as JSON data. */
export type EventExpectation = { type: string } & JsonObject;

/** The catalog model id a role is bound to in a case: `models.bind[role]` or "scripted-model". */
export function boundModelId(models: ScenarioModels, role: string): string {
  return Object.hasOwn(models.bind, role)
    ? (models.bind[role] ?? DEFAULT_MODEL_ID)
    : DEFAULT_MODEL_ID;
}
