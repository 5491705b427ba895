import { TAG_INT } from "./lua-layout";

const TWO_32 = 2 ** 32;
/** 2^53: integers up to this magnitude are exact as doubles. */
const SAFE = 2 ** 53;
/** 2^63: the first double past the 64-bit integer range. */
const TWO_63 = 2 ** 63;

/**
 * The double nearest to the 64-bit integer with these 32-bit halves (one rounding, so the
 * mapping is monotonic: a < b implies approx(a) <= approx(b)).
 */
export function integerApprox(low: number, high: number): number {
  return high * TWO_32 + (low >>> 0);
}

/**
 * Whether an integer's double approximation is certainly exact: |approx| < 2^53 (2^53 itself
 * may be the rounding of 2^53 + 1).
 */
export function isSafeApprox(value: number): boolean {
  return value > -SAFE && value < SAFE;
}

/**
 * Whether a number key read back from its sorted double is an integer key: Lua stores every
 * float key with an integral value inside the 64-bit range as an integer, so an integral double
 * in that range can only come from an integer key.
 */
export function isIntegerKeyValue(value: number): boolean {
  return Number.isInteger(value) && value >= -TWO_63 && value < TWO_63;
}

/** The low 32 bits of the 64-bit integer `value` (an integral double within ±2^53). */
export function integerLow(value: number): number {
  return (value - Math.floor(value / TWO_32) * TWO_32) | 0;
}

/** The high 32 bits (two's complement) of the 64-bit integer `value` (within ±2^53). */
export function integerHigh(value: number): number {
  return Math.floor(value / TWO_32) | 0;
}

/** The exact value of a number key: a bigint for integers and integral floats, else the double. */
function exactOf(tag: number, low: number, high: number, approx: number): bigint | number {
  if (tag === TAG_INT) return (BigInt(high) << 32n) | BigInt(low >>> 0);
  return Number.isInteger(approx) ? BigInt(approx) : approx;
}

/**
 * Compares two number keys exactly by value, integers and floats together (negative when `a`
 * sorts first). Each key is its tag, the two 32-bit halves of its 8 value bytes and its double
 * approximation. Different approximations decide at once (rounding is monotonic); equal ones
 * can only be integers past 2^53 or integral floats, which compare as bigints.
 */
export function compareNumberKeys(
  aTag: number,
  aLow: number,
  aHigh: number,
  aApprox: number,
  bTag: number,
  bLow: number,
  bHigh: number,
  bApprox: number,
): number {
  if (aApprox < bApprox) return -1;
  if (aApprox > bApprox) return 1;
  const a = exactOf(aTag, aLow, aHigh, aApprox);
  const b = exactOf(bTag, bLow, bHigh, bApprox);
  return a < b ? -1 : a > b ? 1 : 0;
}
