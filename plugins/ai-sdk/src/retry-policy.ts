/** How a provider retries a round's transient failures. */
export interface RetryOptions {
  /** The most retries after the first attempt (default 4; 0 turns retrying off). */
  readonly maxRetries?: number;
  /** The most time all waits of one round may take together, in ms (default 60,000). */
  readonly maxRetryTimeMs?: number;
  /** The first backoff, in ms (default 500); each retry doubles it. */
  readonly initialDelayMs?: number;
  /** The longest backoff, in ms (default 20,000); a longer Retry-After is still honoured. */
  readonly maxDelayMs?: number;
  /** A random number in [0, 1) for the jitter (default Math.random; tests fix it). */
  readonly random?: () => number;
}

/** The checked retry settings. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly maxRetryTimeMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly random: () => number;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Omit<RetryPolicy, "random"> = {
  maxRetries: 4,
  maxRetryTimeMs: 60_000,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
};

function wholeAtLeast(value: unknown, min: number, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new TypeError(
      `retry.${name} must be a whole number of at least ${min}, got ${String(value)}`,
    );
  }
  return value;
}

/** The policy of `options`; throws a TypeError naming a bad setting. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxRetries: wholeAtLeast(options.maxRetries, 0, "maxRetries", DEFAULT_RETRY.maxRetries),
    maxRetryTimeMs: wholeAtLeast(
      options.maxRetryTimeMs,
      0,
      "maxRetryTimeMs",
      DEFAULT_RETRY.maxRetryTimeMs,
    ),
    initialDelayMs: wholeAtLeast(
      options.initialDelayMs,
      0,
      "initialDelayMs",
      DEFAULT_RETRY.initialDelayMs,
    ),
    maxDelayMs: wholeAtLeast(options.maxDelayMs, 0, "maxDelayMs", DEFAULT_RETRY.maxDelayMs),
    random: options.random ?? Math.random,
  };
}

/**
 * The wait before retry number `retry` (1 for the first): exponential backoff
 * (`initialDelayMs · 2^(retry-1)`, at most `maxDelayMs`) with equal jitter (between half and
 * all of it), and never shorter than the server's Retry-After.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs?: number): number {
  const backoff = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  const jittered = Math.round(backoff / 2 + policy.random() * (backoff / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
