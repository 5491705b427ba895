/** The largest run seed: seeds are whole numbers from 0 to 2^64 − 1. */
export const MAX_RUN_SEED = (1n << 64n) - 1n;

const MASK = MAX_RUN_SEED;
/** The bytes "RUNVILNC": keeps the nonce stream apart from other uses of the same seed. */
const DOMAIN = 0x52554e56494c4e43n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/**
 * The run's nonce: 32 lowercase hex digits derived from the run seed by SplitMix64 (two outputs
 * of 64 bits), so the same seed always gives the same nonce. Pure: no clock, no crypto API.
 * See docs/design/untrusted.md. Throws a RangeError for a seed that is not a whole number from
 * 0 to 2^64 − 1.
 */
export function runNonce(seed: number | bigint): string {
  let state = (checkSeed(seed) ^ DOMAIN) & MASK;
  let nonce = "";
  for (let i = 0; i < 2; i++) {
    state = (state + GOLDEN) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    z = z ^ (z >> 31n);
    nonce += z.toString(16).padStart(16, "0");
  }
  return nonce;
}

/** The seed as a bigint; a RangeError unless it is a whole number from 0 to 2^64 − 1. */
export function checkSeed(seed: number | bigint): bigint {
  if (typeof seed === "number") {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new RangeError(`the run seed must be a whole number from 0 to 2^64 - 1, got ${seed}`);
    }
    return BigInt(seed);
  }
  if (seed < 0n || seed > MAX_RUN_SEED) {
    throw new RangeError(`the run seed must be a whole number from 0 to 2^64 - 1, got ${seed}`);
  }
  return seed;
}
