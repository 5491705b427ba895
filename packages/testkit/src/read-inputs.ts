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
  type ScriptedToolCall,
} from "./scenario-types";
import { parseStartInstant } from "./start-instant";

const RUN_KEYS = ["name", "seed", "start"] as const;
const MODELS_KEYS = ["bind", "replies"] as const;
const REPLY_KEYS = ["text", "tool_calls", "fail", "empty"] as const;
const TOOL_CALL_KEYS = ["id", "name", "arguments"] as const;
const MODEL_FAIL_KEYS = ["kind", "reason", "message"] as const;
const EMPTY_KEYS = ["finish_reason"] as const;
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
    run.seed = readInteger(sink, field(fields, "seed"), [...path, "seed"], 0) ?? run.seed;
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
  return { kind: "message", text: text ?? "", toolCalls };
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
  return {
    kind: "fail",
    failure: reason === undefined ? { kind, message } : { kind, reason, message },
  };
}

function readEmptyReply(sink: IssueSink, value: unknown, path: KeyPath): ModelReply | undefined {
  const fields = readMapping(sink, value, path, EMPTY_KEYS);
  if (fields === undefined) return undefined;
  if (!has(fields, "finish_reason")) return { kind: "empty" };
  const reason = readString(sink, field(fields, "finish_reason"), [...path, "finish_reason"], {
    nonEmpty: true,
  });
  return reason === undefined ? undefined : { kind: "empty", finishReason: reason };
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
