/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The result of {@link pairedRounds}: per-variant median time and median ratio to the first. */
export interface PairedResult {
  readonly name: string;
  readonly medianMs: number;
  readonly minMs: number;
  /** Median over rounds of (this variant / the first variant) in the same round. */
  readonly ratio: number;
}

/**
 * Runs every variant once per round, `rounds` times, rotating the order each round, after one
 * unmeasured warm-up round. Each variant returns the milliseconds it measured itself (so setup
 * stays out). Ratios are medians of per-round ratios, which is robust on a shared machine.
 */
export function pairedRounds(
  variants: readonly (readonly [string, () => number])[],
  rounds: number,
): PairedResult[] {
  for (const [, run] of variants) run();
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (k + round) % variants.length;
      const variant = variants[index];
      if (variant !== undefined) times[index]?.push(variant[1]());
    }
  }
  const base = times[0] ?? [];
  return variants.map(([name], index) => {
    const own = times[index] ?? [];
    return {
      name,
      medianMs: median(own),
      minMs: Math.min(...own),
      ratio: median(own.map((ms, round) => ms / (base[round] ?? ms))),
    };
  });
}

/** Milliseconds `work` takes once. */
export function timeMs(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/** Milliseconds `work` takes once, awaited. */
export async function timeMsAsync(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** A number with 3 significant digits. */
export function fmt(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}
