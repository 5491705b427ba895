import { randomBytes } from "node:crypto";

/**
 * The largest run seed, 2^64 − 1 (the Engine's MAX_RUN_SEED, repeated here so the main thread
 * does not load the Engine just to check an option).
 */
export const MAX_SEED = 18446744073709551615n;

/** The usage error printed for a `--seed` that is not a whole number from 0 to 2^64 − 1. */
export function seedUsageError(text: string): string {
  return `error: --seed must be a whole number from 0 to ${MAX_SEED} (2^64 - 1), got ${JSON.stringify(text)}`;
}

/** Reads a `--seed` value: decimal digits only, 0 … 2^64 − 1; undefined when it is not one. */
export function parseSeed(text: string): bigint | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const seed = BigInt(text);
  return seed <= MAX_SEED ? seed : undefined;
}

/**
 * A run seed drawn from a secure random source: the run's untrusted-envelope nonce derives from
 * the seed, so a seed nobody can guess keeps the envelope unforgeable (tools chapter, "The run's
 * nonce"). `--seed N` replaces it to reproduce a run.
 */
export function randomSeed(): bigint {
  return randomBytes(8).readBigUInt64BE(0);
}
