import type { KeyPath } from "./key-path";
import { compileScenarioRegex } from "./scenario-regex";
import type { JsonObject, JsonValue } from "./scenario-types";

/** Receives the problems a reader finds. */
export type IssueSink = (path: KeyPath, message: string) => void;

/** A mapping read from YAML, keys already checked. */
export type Fields = Readonly<Record<string, unknown>>;

/** Describes a YAML value's type for a message: "a string", "a list"... */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing (null)";
  if (typeof value === "string") return `a string (${JSON.stringify(clip(value))})`;
  if (typeof value === "number") return `a number (${String(value)})`;
  if (typeof value === "boolean") return `a boolean (${String(value)})`;
  if (Array.isArray(value)) return "a list";
  if (isPlainObject(value)) return "a mapping";
  return `a ${typeof value === "object" ? (value.constructor?.name ?? "value") : typeof value}`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** True for a plain object (a YAML mapping). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The value of an own key, or undefined. */
export function field(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

/** True when the mapping has the key (even with a null value). */
export function has(fields: Fields, key: string): boolean {
  return Object.hasOwn(fields, key);
}

const withUnknownKeys = new WeakSet<object>();

/**
 * True when {@link readMapping} reported an unknown key in this mapping; checks of how its
 * keys combine are then skipped, since the unknown key is most likely a misspelt known one.
 */
export function hadUnknownKeys(fields: Fields): boolean {
  return withUnknownKeys.has(fields);
}

/**
 * Reads a mapping whose keys must be among `keys`; each unknown key is reported at its own
 * path, with the closest known key as a suggestion.
 */
export function readMapping(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  keys: readonly string[],
): Fields | undefined {
  if (!isPlainObject(value)) {
    sink(path, `must be a mapping, got ${describeValue(value)}`);
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (keys.includes(key)) continue;
    withUnknownKeys.add(value);
    const near = closest(key, keys);
    const hint =
      near === undefined ? `the keys here are: ${keys.join(", ")}` : `did you mean "${near}"?`;
    sink([...path, key], `unknown key "${key}"; ${hint}`);
  }
  return value;
}

/** Reports each missing required key; true when all are there. */
export function requireKeys(
  sink: IssueSink,
  fields: Fields,
  path: KeyPath,
  keys: readonly string[],
): boolean {
  let ok = true;
  for (const key of keys) {
    if (has(fields, key)) continue;
    sink(path, `missing required key "${key}"`);
    ok = false;
  }
  return ok;
}

/** Options of {@link readString}. */
export interface StringRules {
  /** Refuse "". */
  nonEmpty?: boolean;
  /** Refuse line breaks. */
  singleLine?: boolean;
}

/** Reads a string. */
export function readString(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  rules: StringRules = {},
): string | undefined {
  if (typeof value !== "string") {
    sink(path, `must be a string, got ${describeValue(value)}`);
    return undefined;
  }
  if (rules.nonEmpty === true && value.trim() === "") {
    sink(path, "must not be empty");
    return undefined;
  }
  if (rules.singleLine === true && /[\r\n]/.test(value)) {
    sink(path, "must be one line");
    return undefined;
  }
  return value;
}

/** Reads true or false. */
export function readBoolean(sink: IssueSink, value: unknown, path: KeyPath): boolean | undefined {
  if (typeof value === "boolean") return value;
  sink(path, `must be true or false, got ${describeValue(value)}`);
  return undefined;
}

/** Reads a safe integer of at least `min`. */
export function readInteger(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  min: number,
): number | undefined {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    sink(path, `must be a whole number, got ${describeValue(value)}`);
    return undefined;
  }
  if (value < min) {
    sink(path, `must be at least ${min}, got ${value}`);
    return undefined;
  }
  return value;
}

/** Reads a finite number of at least 0 (a price). */
export function readPrice(sink: IssueSink, value: unknown, path: KeyPath): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    sink(path, `must be a number of at least 0, got ${describeValue(value)}`);
    return undefined;
  }
  return value;
}

/** Reads a list of strings (each item checked by `rules`). */
export function readStringList(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  rules: StringRules = {},
): string[] | undefined {
  if (!Array.isArray(value)) {
    sink(path, `must be a list of strings, got ${describeValue(value)}`);
    return undefined;
  }
  const out: string[] = [];
  let ok = true;
  value.forEach((item: unknown, index) => {
    const text = readString(sink, item, [...path, index], rules);
    if (text === undefined) ok = false;
    else out.push(text);
  });
  return ok ? out : undefined;
}

/** Reads a mapping of string keys to string values. */
export function readStringMap(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  checkKey?: (key: string) => string | undefined,
): Record<string, string> | undefined {
  if (!isPlainObject(value)) {
    sink(path, `must be a mapping of strings, got ${describeValue(value)}`);
    return undefined;
  }
  const entries: [string, string][] = [];
  let ok = true;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = checkKey?.(key);
    if (keyProblem !== undefined) {
      sink([...path, key], keyProblem);
      ok = false;
      continue;
    }
    const text = readString(sink, item, [...path, key]);
    if (text === undefined) ok = false;
    else entries.push([key, text]);
  }
  return ok ? Object.fromEntries(entries) : undefined;
}

/** Reads JSON data: null, booleans, finite numbers, strings, lists and mappings of them. */
export function readJson(sink: IssueSink, value: unknown, path: KeyPath): JsonValue | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    sink(path, `must be JSON data, and ${String(value)} is not a JSON number`);
    return undefined;
  }
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    let ok = true;
    value.forEach((item: unknown, index) => {
      const json = readJson(sink, item, [...path, index]);
      if (json === undefined) ok = false;
      else out.push(json);
    });
    return ok ? out : undefined;
  }
  if (isPlainObject(value)) return readJsonObject(sink, value, path);
  sink(path, `must be JSON data, got ${describeValue(value)}`);
  return undefined;
}

/** Reads a mapping of JSON data. */
export function readJsonObject(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
): JsonObject | undefined {
  if (!isPlainObject(value)) {
    sink(path, `must be a mapping, got ${describeValue(value)}`);
    return undefined;
  }
  const entries: [string, JsonValue][] = [];
  let ok = true;
  for (const [key, item] of Object.entries(value)) {
    const json = readJson(sink, item, [...path, key]);
    if (json === undefined) ok = false;
    else entries.push([key, json]);
  }
  return ok ? Object.fromEntries(entries) : undefined;
}

/** Reads the source of a `*_matches` regular expression and checks that it compiles. */
export function readRegex(sink: IssueSink, value: unknown, path: KeyPath): string | undefined {
  const source = readString(sink, value, path);
  if (source === undefined) return undefined;
  if (source === "") {
    sink(path, "must not be empty: an empty regular expression matches any text");
    return undefined;
  }
  const compiled = compileScenarioRegex(source);
  if (!compiled.ok) {
    sink(path, `is not a valid regular expression: ${compiled.reason}`);
    return undefined;
  }
  if (source.includes("NONCE")) {
    sink(
      path,
      "NONCE is not replaced inside a regular expression; match the nonce with [0-9a-f]{32}",
    );
    return undefined;
  }
  return source;
}

/** Reads a string that must be one of `choices`. */
export function readChoice<T extends string>(
  sink: IssueSink,
  value: unknown,
  path: KeyPath,
  choices: readonly T[],
): T | undefined {
  const found = choices.find((choice) => choice === value);
  if (found !== undefined) return found;
  sink(path, `must be one of ${choices.join(", ")}; got ${describeValue(value)}`);
  return undefined;
}

function closest(key: string, keys: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of keys) {
    const distance = editDistance(lower, candidate);
    const near =
      distance <= Math.max(2, Math.floor(key.length / 3)) ||
      commonPrefix(lower, candidate) >= Math.max(4, Math.ceil(key.length / 2));
    if (near && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function commonPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
