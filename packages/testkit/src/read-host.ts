import {
  describeValue,
  field,
  hadUnknownKeys,
  has,
  type IssueSink,
  readBoolean,
  readChoice,
  readInteger,
  readJson,
  readJsonObject,
  readMapping,
  readString,
  readStringMap,
  requireKeys,
} from "./field-reader";
import type { KeyPath } from "./key-path";
import {
  DEFAULT_FIXTURE_VENDOR,
  type FixtureTool,
  HOST_SERVICES,
  OFFICIAL_PACKS,
  type ScenarioHost,
  type ScenarioLimits,
} from "./scenario-types";

const HOST_KEYS = [
  "packs",
  "services",
  "unavailable",
  "fixture_tools",
  "fixture_preludes",
  "snapshot",
  "limits",
] as const;

const FIXTURE_TOOL_KEYS = [
  "id",
  "description",
  "parameters",
  "structured",
  "trusted",
  "declared",
  "vendor",
  "returns",
  "fails",
] as const;

const LIMIT_KEYS = ["log_events", "lua_memory_bytes"] as const;

/** The Host of a case that gives no `host`: every default. */
export function defaultHost(): ScenarioHost {
  return {
    packs: [...OFFICIAL_PACKS],
    services: [...HOST_SERVICES],
    unavailable: {},
    fixtureTools: [],
    fixturePreludes: {},
    limits: {},
  };
}

/** Reads `host` (absent: {@link defaultHost}). */
export function readHost(sink: IssueSink, value: unknown, path: KeyPath): ScenarioHost {
  const host = defaultHost();
  const fields = readMapping(sink, value, path, HOST_KEYS);
  if (fields === undefined) return host;
  if (has(fields, "packs")) {
    host.packs = readUniqueChoices(
      sink,
      field(fields, "packs"),
      [...path, "packs"],
      OFFICIAL_PACKS,
    );
  }
  if (has(fields, "services")) {
    const at = [...path, "services"];
    host.services = readUniqueChoices(sink, field(fields, "services"), at, HOST_SERVICES);
  }
  if (has(fields, "unavailable")) {
    host.unavailable =
      readStringMap(sink, field(fields, "unavailable"), [...path, "unavailable"], packIdProblem) ??
      {};
  }
  if (has(fields, "fixture_tools")) {
    host.fixtureTools = readFixtureTools(sink, field(fields, "fixture_tools"), [
      ...path,
      "fixture_tools",
    ]);
  }
  if (has(fields, "fixture_preludes")) {
    const at = [...path, "fixture_preludes"];
    host.fixturePreludes =
      readStringMap(sink, field(fields, "fixture_preludes"), at, barePackIdProblem) ?? {};
  }
  if (has(fields, "snapshot")) {
    const snapshot = readJsonObject(sink, field(fields, "snapshot"), [...path, "snapshot"]);
    if (snapshot !== undefined) host.snapshot = snapshot;
  }
  if (has(fields, "limits"))
    host.limits = readLimits(sink, field(fields, "limits"), [...path, "limits"]);
  return host;
}

function readUniqueChoices<T extends string>(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  choices: readonly T[],
): T[] {
  if (!Array.isArray(value)) {
    sink(path, `must be a list drawn from ${choices.join(", ")}, got ${describeValue(value)}`);
    return [];
  }
  const out: T[] = [];
  value.forEach((item: unknown, index) => {
    const choice = readChoice(sink, item, [...path, index], choices);
    if (choice === undefined) return;
    if (out.includes(choice)) sink([...path, index], `lists "${choice}" twice`);
    else out.push(choice);
  });
  return out;
}

function packIdProblem(key: string): string | undefined {
  return key.trim() === "" ? "a Pack id must not be empty" : undefined;
}

function barePackIdProblem(key: string): string | undefined {
  if (key.trim() === "") return "a Pack id must not be empty";
  if (key.includes("/"))
    return `"${key}" is not a bare Pack id: a fixture prelude's Pack is declared by its bare id`;
  return undefined;
}

function readLimits(sink: IssueSink, value: unknown, path: KeyPath): ScenarioLimits {
  const limits: ScenarioLimits = {};
  const fields = readMapping(sink, value, path, LIMIT_KEYS);
  if (fields === undefined) return limits;
  if (has(fields, "log_events")) {
    const count = readInteger(sink, field(fields, "log_events"), [...path, "log_events"], 0);
    if (count !== undefined) limits.logEvents = count;
  }
  if (has(fields, "lua_memory_bytes")) {
    const at = [...path, "lua_memory_bytes"];
    const bytes = readInteger(sink, field(fields, "lua_memory_bytes"), at, 1);
    if (bytes !== undefined) limits.luaMemoryBytes = bytes;
  }
  return limits;
}

function readFixtureTools(sink: IssueSink, value: unknown, path: KeyPath): FixtureTool[] {
  if (!Array.isArray(value)) {
    sink(path, `must be a list of tools, got ${describeValue(value)}`);
    return [];
  }
  const tools: FixtureTool[] = [];
  const seen = new Map<string, number>();
  value.forEach((item: unknown, index) => {
    const at = [...path, index];
    const tool = readFixtureTool(sink, item, at);
    if (tool === undefined) return;
    const first = seen.get(tool.id);
    if (first !== undefined) {
      sink([...at, "id"], `repeats the tool id "${tool.id}" of fixture_tools[${first}]`);
      return;
    }
    seen.set(tool.id, index);
    tools.push(tool);
  });
  return tools;
}

function readFixtureTool(sink: IssueSink, value: unknown, path: KeyPath): FixtureTool | undefined {
  const fields = readMapping(sink, value, path, FIXTURE_TOOL_KEYS);
  if (fields === undefined || !requireKeys(sink, fields, path, ["id"])) return undefined;
  const id = readString(sink, field(fields, "id"), [...path, "id"], { nonEmpty: true });
  const slash = id?.indexOf("/") ?? -1;
  if (id !== undefined && (slash <= 0 || slash === id.length - 1)) {
    sink([...path, "id"], `"${id}" is not a tool id: write <pack>/<tool>, such as stats/read`);
  }
  const optional = <T>(
    key: string,
    read: (v: unknown, at: KeyPath) => T | undefined,
  ): T | undefined => (has(fields, key) ? read(field(fields, key), [...path, key]) : undefined);
  const bool = (v: unknown, at: KeyPath) => readBoolean(sink, v, at);
  const text = (v: unknown, at: KeyPath) => readString(sink, v, at);

  const declared = optional("declared", bool) ?? false;
  if (has(fields, "vendor") && !declared) {
    sink([...path, "vendor"], "applies only to a declared fixture Pack: add declared: true");
  }
  const returns = optional("returns", text);
  const fails = optional("fails", (v, at) => readString(sink, v, at, { nonEmpty: true }));
  if (has(fields, "returns") === has(fields, "fails") && !hadUnknownKeys(fields)) {
    sink(path, 'needs exactly one of "returns" (the output text) or "fails" (a failure message)');
  }
  if (id === undefined || slash <= 0) return undefined;
  return {
    id,
    packId: id.slice(0, slash),
    description: optional("description", text) ?? "",
    parameters: optional("parameters", (v, at) => readJson(sink, v, at)) ?? {
      type: "object",
      properties: {},
    },
    structured: optional("structured", bool) ?? false,
    trusted: optional("trusted", bool) ?? true,
    declared,
    vendor:
      optional("vendor", (v, at) =>
        readString(sink, v, at, { nonEmpty: true, singleLine: true }),
      ) ?? DEFAULT_FIXTURE_VENDOR,
    behaviour:
      fails !== undefined
        ? { kind: "fails", message: fails }
        : { kind: "returns", text: returns ?? "" },
  };
}
