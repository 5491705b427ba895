import { MAX_RUN_SEED } from "@runvil/engine";

/** The usage error printed for a `--seed` that is not a whole number from 0 to 2^64 − 1. */
export function seedUsageError(text: string): string {
  return `error: --seed must be a whole number from 0 to ${MAX_RUN_SEED} (2^64 - 1), got ${JSON.stringify(text)}`;
}

/** Reads a `--seed` value: decimal digits only, 0 … 2^64 − 1; undefined when it is not one. */
export function parseSeed(text: string): bigint | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const seed = BigInt(text);
  return seed <= MAX_RUN_SEED ? seed : undefined;
}
