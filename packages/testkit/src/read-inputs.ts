import { checkModelId, MODEL_ID_GRAMMAR } from "@runvil/names";
import {
  describeValue,
  field,
  hadUnknownKeys,
  has,
  type IssueSink,
  isPlainObject,
  readBoolean,
  readInteger,
  readJson,
  readMapping,
  readPrice,
  readString,
  readStringMap,
  requireKeys,
} from "./field-reader";
import type { KeyPath } from "./key-path";
import {
  DEFAULT_RUN_NAME,
  DEFAULT_SEED,
  DEFAULT_START,
  type ModelReply,
  type OperatorAnswer,
  type ScenarioModels,
  type ScenarioRun,
  type ScenarioWeb,
  type ScriptedModelFacts,
  type ScriptedPrices,
  type ScriptedToolCall,
  type ScriptedUsage,
} from "./scenario-types";
import { SCRIPTED_FAILURE_KINDS, SCRIPTED_MODEL_FACTS } from "./scripted-model-provider";
import { parseStartInstant } from "./start-instant";

const RUN_KEYS = ["name", "seed", "start"] as const;
const MODELS_KEYS = ["bind", "catalog", "replies"] as const;
const CATALOG_MODEL_KEYS = ["context_window", "max_output_tokens", "tools", "prices"] as const;
const PRICES_KEYS = ["input", "output", "cached_input"] as const;
const REPLY_KEYS = ["text", "tool_calls", "usage", "fail", "empty"] as const;
const USAGE_KEYS = ["input", "output", "cached_input", "reasoning"] as const;
const TOOL_CALL_KEYS = ["id", "name", "arguments"] as const;
const MODEL_FAIL_KEYS = ["kind", "reason", "message"] as const;
const EMPTY_KEYS = ["finish_reason", "usage"] as const;
/** The kinds a scripted `fail` may name: the sdk's ModelFailureKind. */
const FAIL_KINDS: readonly string[] = SCRIPTED_FAILURE_KINDS;
const OPERATOR_KEYS = ["fail", "hold"] as const;
const WEB_KEYS = ["pages", "search"] as const;

const DEFAULT_START_MS = Date.UTC(2000, 0, 1);

/** The run inputs of a case that gives no `run`. */
export function defaultRun(): ScenarioRun {
  return {
    name: DEFAULT_RUN_NAME,
    seed: DEFAULT_SEED,
    start: DEFAULT_START,
    startEpochMs: DEFAULT_START_MS,
  };
}

/** The largest run seed, 2^64 − 1. */
const MAX_SEED = 18446744073709551615n;

/**
 * Reads `run.seed`: a whole number ≥ 0, or (for seeds YAML numbers cannot hold exactly, such as
 * the random seed `runvil run` draws) a text of decimal digits up to 2^64 − 1.
 */
function readSeed(sink: IssueSink, value: unknown, path: KeyPath): number | string | undefined {
  if (typeof value !== "string") return readInteger(sink, value, path, 0);
  if (!/^\d{1,20}$/.test(value) || BigInt(value) > MAX_SEED) {
    sink(path, `must be a whole number from 0 to ${MAX_SEED}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

/** Reads `run` (absent: {@link defaultRun}). */
export function readRun(sink: IssueSink, value: unknown, path: KeyPath): ScenarioRun {
  const run = defaultRun();
  const fields = readMapping(sink, value, path, RUN_KEYS);
  if (fields === undefined) return run;
  if (has(fields, "name")) {
    const at = [...path, "name"];
    run.name =
      readString(sink, field(fields, "name"), at, { nonEmpty: true, singleLine: true }) ?? run.name;
  }
  if (has(fields, "seed"))
    run.seed = readSeed(sink, field(fields, "seed"), [...path, "seed"]) ?? run.seed;
  if (has(fields, "start")) {
    const at = [...path, "start"];
    const text = readString(sink, field(fields, "start"), at);
    if (text !== undefined) {
      const ms = parseStartInstant(text);
      if (ms === undefined) {
        sink(
          at,
          `"${text}" is not a UTC instant such as 2000-01-01T00:00:00Z or 2000-02-29T00:00:00.123Z`,
        );
      } else {
        run.start = text;
        run.startEpochMs = ms;
      }
    }
  }
  return run;
}

/** Reads `models` (absent: no bindings, no replies). */
export function readModels(sink: IssueSink, value: unknown, path: KeyPath): ScenarioModels {
  const models: ScenarioModels = { bind: {}, replies: [] };
  const fields = readMapping(sink, value, path, MODELS_KEYS);
  if (fields === undefined) return models;
  if (has(fields, "bind")) {
    const at = [...path, "bind"];
    const bind = readStringMap(sink, field(fields, "bind"), at, (key) =>
      key.trim() === "" ? "a role label must not be empty" : undefined,
    );
    for (const [role, id] of Object.entries(bind ?? {})) {
      if (id.trim() === "") sink([...at, role], "must name a catalog model id");
    }
    models.bind = bind ?? {};
  }
  if (has(fields, "catalog")) {
    models.catalog = readCatalog(sink, field(fields, "catalog"), [...path, "catalog"]);
  }
  if (has(fields, "replies")) {
    const at = [...path, "replies"];
    const replies = field(fields, "replies");
    if (!Array.isArray(replies))
      sink(at, `must be a list of replies, got ${describeValue(replies)}`);
    else {
      replies.forEach((reply: unknown, index) => {
        const read = readReply(sink, reply, [...at, index]);
        if (read !== undefined) models.replies.push(read);
      });
    }
  }
  return models;
}

/** Reads `models.catalog`: catalog id -> `{ context_window?, max_output_tokens?, tools? }`. */
function readCatalog(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): Record<string, ScriptedModelFacts> {
  const catalog: Record<string, ScriptedModelFacts> = {};
  if (!isPlainObject(value)) {
    sink(
      path,
      `must be a mapping of catalog model ids to their facts, got ${describeValue(value)}`,
    );
    return catalog;
  }
  for (const [id, entry] of Object.entries(value)) {
    const at = [...path, id];
    if (!checkModelId(id).ok) {
      sink(at, `"${id}" is not a catalog model id (${MODEL_ID_GRAMMAR})`);
      continue;
    }
    const fields = readMapping(sink, entry, at, CATALOG_MODEL_KEYS);
    if (fields === undefined) continue;
    const facts: ScriptedModelFacts = {};
    if (has(fields, "context_window")) {
      const window = readInteger(
        sink,
        field(fields, "context_window"),
        [...at, "context_window"],
        1,
      );
      if (window !== undefined) facts.contextWindow = window;
    }
    if (has(fields, "max_output_tokens")) {
      const output = readInteger(
        sink,
        field(fields, "max_output_tokens"),
        [...at, "max_output_tokens"],
        1,
      );
      if (output !== undefined) facts.maxOutputTokens = output;
    }
    if (has(fields, "tools")) {
      const tools = readBoolean(sink, field(fields, "tools"), [...at, "tools"]);
      if (tools !== undefined) facts.tools = tools;
    }
    if (has(fields, "prices")) {
      const prices = readPrices(sink, field(fields, "prices"), [...at, "prices"]);
      if (prices !== undefined) facts.prices = prices;
    }
    const window = facts.contextWindow ?? SCRIPTED_MODEL_FACTS.contextWindow;
    const output = facts.maxOutputTokens ?? SCRIPTED_MODEL_FACTS.maxOutputTokens;
    if (output > window) {
      sink(at, `max_output_tokens ${output} is over the ${window}-token context window`);
      continue;
    }
    catalog[id] = facts;
  }
  return catalog;
}

/**
 * Reads a catalog model's `prices`: `{ input, output, cached_input? }`, USD per million tokens
 * (numbers ≥ 0; `input` and `output` required).
 */
function readPrices(sink: IssueSink, value: unknown, path: KeyPath): ScriptedPrices | undefined {
  const fields = readMapping(sink, value, path, PRICES_KEYS);
  if (fields === undefined || !requireKeys(sink, fields, path, ["input", "output"])) {
    return undefined;
  }
  const input = readPrice(sink, field(fields, "input"), [...path, "input"]);
  const output = readPrice(sink, field(fields, "output"), [...path, "output"]);
  const cached = has(fields, "cached_input")
    ? readPrice(sink, field(fields, "cached_input"), [...path, "cached_input"])
    : undefined;
  if (input === undefined || output === undefined) return undefined;
  if (has(fields, "cached_input") && cached === undefined) return undefined;
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    ...(cached === undefined ? {} : { cachedInputPerMillion: cached }),
  };
}

/**
 * Reads a reply's `usage`: `{ input, output, cached_input?, reasoning? }`, whole token counts
 * ≥ 0 (`input` and `output` default 0).
 */
function readUsage(sink: IssueSink, value: unknown, path: KeyPath): ScriptedUsage | undefined {
  const fields = readMapping(sink, value, path, USAGE_KEYS);
  if (fields === undefined) return undefined;
  const usage: ScriptedUsage = { input: 0, output: 0 };
  for (const key of USAGE_KEYS) {
    if (!has(fields, key)) continue;
    const count = readInteger(sink, field(fields, key), [...path, key], 0);
    if (count === undefined) return undefined;
    if (key === "cached_input") usage.cachedInput = count;
    else if (key === "reasoning") usage.reasoning = count;
    else usage[key] = count;
  }
  return usage;
}

function readReply(sink: IssueSink, value: unknown, path: KeyPath): ModelReply | undefined {
  const fields = readMapping(sink, value, path, REPLY_KEYS);
  if (fields === undefined || hadUnknownKeys(fields)) return undefined;
  for (const special of ["fail", "empty"] as const) {
    if (!has(fields, special)) continue;
    const others = Object.keys(fields).filter((key) => key !== special);
    if (others.length > 0) {
      sink(
        path,
        `a "${special}" reply has no other keys; remove ${others.map((k) => `"${k}"`).join(", ")}`,
      );
      return undefined;
    }
    return special === "fail"
      ? readModelFailure(sink, field(fields, "fail"), [...path, "fail"])
      : readEmptyReply(sink, field(fields, "empty"), [...path, "empty"]);
  }
  const text = has(fields, "text")
    ? readString(sink, field(fields, "text"), [...path, "text"])
    : undefined;
  const toolCalls = has(fields, "tool_calls")
    ? readToolCalls(sink, field(fields, "tool_calls"), [...path, "tool_calls"])
    : [];
  const rawCalls = field(fields, "tool_calls");
  if (!has(fields, "text") && (!Array.isArray(rawCalls) || rawCalls.length === 0)) {
    sink(path, 'a reply needs "text" or "tool_calls" (a reply with neither is written empty: {})');
    return undefined;
  }
  const reply: ModelReply = { kind: "message", text: text ?? "", toolCalls };
  if (has(fields, "usage")) {
    const usage = readUsage(sink, field(fields, "usage"), [...path, "usage"]);
    if (usage === undefined) return undefined;
    reply.usage = usage;
  }
  return reply;
}

function readModelFailure(sink: IssueSink, value: unknown, path: KeyPath): ModelReply | undefined {
  const fields = readMapping(sink, value, path, MODEL_FAIL_KEYS);
  if (fields === undefined || !requireKeys(sink, fields, path, ["kind", "message"]))
    return undefined;
  const kind = readString(sink, field(fields, "kind"), [...path, "kind"], {
    nonEmpty: true,
    singleLine: true,
  });
  const message = readString(sink, field(fields, "message"), [...path, "message"]);
  const reason = has(fields, "reason")
    ? readString(sink, field(fields, "reason"), [...path, "reason"], { nonEmpty: true })
    : undefined;
  if (kind === undefined || message === undefined) return undefined;
  if (kind !== "context_exhausted" && kind !== "internal") {
    sink(
      [...path, "kind"],
      `must be one of ${FAIL_KINDS.join(", ")} (the kinds a model provider fails a round with), got "${kind}"`,
    );
    return undefined;
  }
  if (reason !== undefined && (kind === "internal" || reason !== "provider")) {
    sink(
      [...path, "reason"],
      kind === "internal"
        ? "an internal failure has no reason; remove it"
        : `a provider's context_exhausted has reason provider (precheck is the Engine's own), got "${reason}"`,
    );
    return undefined;
  }
  return {
    kind: "fail",
    failure: reason === undefined ? { kind, message } : { kind, reason, message },
  };
}

function readEmptyReply(sink: IssueSink, value: unknown, path: KeyPath): ModelReply | undefined {
  const fields = readMapping(sink, value, path, EMPTY_KEYS);
  if (fields === undefined) return undefined;
  const reply: ModelReply = { kind: "empty" };
  if (has(fields, "finish_reason")) {
    const reason = readString(sink, field(fields, "finish_reason"), [...path, "finish_reason"], {
      nonEmpty: true,
    });
    if (reason === undefined) return undefined;
    reply.finishReason = reason;
  }
  if (has(fields, "usage")) {
    const usage = readUsage(sink, field(fields, "usage"), [...path, "usage"]);
    if (usage === undefined) return undefined;
    reply.usage = usage;
  }
  return reply;
}

function readToolCalls(sink: IssueSink, value: unknown, path: KeyPath): ScriptedToolCall[] {
  if (!Array.isArray(value)) {
    sink(path, `must be a list of tool calls, got ${describeValue(value)}`);
    return [];
  }
  const calls: ScriptedToolCall[] = [];
  value.forEach((item: unknown, index) => {
    const at = [...path, index];
    const fields = readMapping(sink, item, at, TOOL_CALL_KEYS);
    if (fields === undefined || !requireKeys(sink, fields, at, ["id", "name"])) return;
    const id = readString(sink, field(fields, "id"), [...at, "id"]);
    const name = readString(sink, field(fields, "name"), [...at, "name"]);
    const args = has(fields, "arguments")
      ? readJson(sink, field(fields, "arguments"), [...at, "arguments"])
      : {};
    if (id !== undefined && name !== undefined && args !== undefined)
      calls.push({ id, name, arguments: args });
  });
  return calls;
}

/** Reads `operator` (absent: no answers). */
export function readOperator(sink: IssueSink, value: unknown, path: KeyPath): OperatorAnswer[] {
  if (!Array.isArray(value)) {
    sink(path, `must be a list of answers, got ${describeValue(value)}`);
    return [];
  }
  const answers: OperatorAnswer[] = [];
  value.forEach((item: unknown, index) => {
    const at = [...path, index];
    if (typeof item === "string") {
      answers.push({ kind: "answer", text: item });
      return;
    }
    if (!isPlainObject(item)) {
      sink(
        at,
        `an operator answer is a string, fail: "message" or hold: true; got ${describeValue(item)}`,
      );
      return;
    }
    const fields = readMapping(sink, item, at, OPERATOR_KEYS);
    if (fields === undefined || hadUnknownKeys(fields)) return;
    if (has(fields, "fail") === has(fields, "hold")) {
      sink(at, 'an operator entry that is not a string has exactly one key: "fail" or "hold"');
      return;
    }
    if (has(fields, "fail")) {
      const message = readString(sink, field(fields, "fail"), [...at, "fail"], { nonEmpty: true });
      if (message !== undefined) answers.push({ kind: "fail", message });
      return;
    }
    const hold = readBoolean(sink, field(fields, "hold"), [...at, "hold"]);
    if (hold === false) sink([...at, "hold"], "must be true (remove the entry to answer nothing)");
    if (hold === true) answers.push({ kind: "hold" });
  });
  return answers;
}

/** Reads `web` (absent: no pages, no search results). */
export function readWeb(sink: IssueSink, value: unknown, path: KeyPath): ScenarioWeb {
  const web: ScenarioWeb = { pages: {}, search: {} };
  const fields = readMapping(sink, value, path, WEB_KEYS);
  if (fields === undefined) return web;
  const notEmpty = (what: string) => (key: string) =>
    key.trim() === "" ? `${what} must not be empty` : undefined;
  if (has(fields, "pages")) {
    web.pages =
      readStringMap(sink, field(fields, "pages"), [...path, "pages"], notEmpty("a url")) ?? {};
  }
  if (has(fields, "search")) {
    web.search =
      readStringMap(sink, field(fields, "search"), [...path, "search"], notEmpty("a query")) ?? {};
  }
  return web;
}

/** Reads a store mapping (the `store` before the run, or `expect.store` after it). */
export function readStoreFiles(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): Record<string, string> {
  return (
    readStringMap(sink, value, path, (key) =>
      key.trim() === "" ? "a store path must not be empty" : undefined,
    ) ?? {}
  );
}
