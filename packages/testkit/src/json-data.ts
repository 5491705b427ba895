import type { KeyPath } from "./key-path";

/** A place where expected and actual JSON data differ. */
export interface JsonDifference {
  /** Path below the compared value; empty for the value itself. */
  path: KeyPath;
  /** The expected value there; undefined when the actual data has a key the expected lacks. */
  expected: unknown;
  /** The actual value there; undefined when it is missing. */
  actual: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own keys whose value is not undefined (an undefined value counts as absent). */
function presentKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

/**
 * JSON deep equality: same type; numbers equal as numbers (so 1 and 1.0 are equal: JSON data
 * in JavaScript cannot tell an integer from a float); lists in order; mappings with the same
 * keys in any order.
 */
export function jsonEqual(expected: unknown, actual: unknown): boolean {
  return jsonDifference(expected, actual) === undefined;
}

/** The first difference between two JSON values (depth first, expected keys first). */
export function jsonDifference(
  expected: unknown,
  actual: unknown,
  path: KeyPath = [],
): JsonDifference | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, expected, actual };
    const shared = Math.min(expected.length, actual.length);
    for (let index = 0; index < shared; index++) {
      const found = jsonDifference(expected[index], actual[index], [...path, index]);
      if (found !== undefined) return found;
    }
    if (expected.length === actual.length) return undefined;
    return {
      path: [...path, shared],
      expected: expected[shared],
      actual: actual[shared],
    };
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return { path, expected, actual };
    for (const key of presentKeys(expected)) {
      const found = jsonDifference(expected[key], actual[key], [...path, key]);
      if (found !== undefined) return found;
    }
    const extra = presentKeys(actual).find(
      (key) => !Object.hasOwn(expected, key) || expected[key] === undefined,
    );
    return extra === undefined
      ? undefined
      : { path: [...path, extra], expected: undefined, actual: actual[extra] };
  }
  return expected === actual ? undefined : { path, expected, actual };
}

/**
 * The keys of `expected` that `actual` lacks or holds with a value that is not JSON-equal
 * (keys only in `actual` are ignored): empty when `expected` is a subset of `actual`.
 */
export function jsonSubsetDifferences(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
): string[] {
  return presentKeys(expected).filter((key) => !jsonEqual(expected[key], actual[key]));
}

/** JSON text with mapping keys sorted, so that key order never shows up as a difference. */
export function canonicalJson(value: unknown, indent = 2): string {
  return JSON.stringify(sortKeys(value), null, indent) ?? "undefined";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const keys = presentKeys(value).sort();
  return Object.fromEntries(keys.map((key) => [key, sortKeys(value[key])]));
}

/** A value on one line for a message: JSON, or "(none)" for undefined. */
export function displayValue(value: unknown): string {
  if (value === undefined) return "(none)";
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
