/**
 * How json.encode writes numbers ("Encoding values with json.encode", scalar rules).
 */

const TWO_POW_63 = 2 ** 63;

/** Smallest and largest Lua integer, as bigints. */
export const INT64_MIN = -(2n ** 63n);
/** Largest Lua integer, as a bigint. */
export const INT64_MAX = 2n ** 63n - 1n;

/** True when `value` is in the 64-bit integer range. */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * The JSON text of a number, or `undefined` for NaN and the infinities (not JSON data).
 *
 * - A bigint, or a number meant as a Lua integer (safe integers), is written in decimal.
 * - A float with no fractional part from -2^63 up to but not including 2^63 is written as that
 *   exact integer: 2.0 gives `2`, -0.0 gives `0`, -2^63 gives `-9223372036854775808`, and 2^60
 *   gives `1152921504606846976` (not JS's `1152921504606847000`).
 * - Every other finite float is written as the shortest text that reads back as exactly the same
 *   number, in ECMAScript's Number-to-String form: 1.5 gives `1.5`, 1e300 gives `1e+300`, 1e-7
 *   gives `1e-7`, and 2^63 stays a float and gives `9223372036854776000`. Such text never reads
 *   back as a Lua integer: an integer-looking one is always outside the 64-bit range.
 */
export function formatJsonNumber(value: number | bigint): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (!Number.isFinite(value)) return undefined;
  if (Number.isInteger(value) && value >= -TWO_POW_63 && value < TWO_POW_63) {
    if (Number.isSafeInteger(value)) return value === 0 ? "0" : String(value);
    return BigInt(value).toString();
  }
  return String(value);
}

/**
 * Debug mode's text for a float that is not JSON data: `NaN`, `Infinity` or `-Infinity`. It is
 * written as a JSON string value, and as the key text of an infinite number key.
 */
export function nonFiniteText(value: number): "NaN" | "Infinity" | "-Infinity" {
  if (Number.isNaN(value)) return "NaN";
  return value > 0 ? "Infinity" : "-Infinity";
}

/**
 * Debug mode's object-key text for a number key: the text it would encode as (`2`, `2.5`,
 * `1e+300`), or `Infinity` / `-Infinity`.
 */
export function numberKeyText(value: number | bigint): string {
  return formatJsonNumber(value) ?? nonFiniteText(value as number);
}
