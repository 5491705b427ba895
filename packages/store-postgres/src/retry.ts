import { isConnectionLoss } from "@runvil/pg-kit";

/** How long, and how often, an operation is tried again while the server is unreachable. */
export interface RetryPolicy {
  /** Give up this long after the first lost connection (ms). */
  readonly forMs: number;
  /** The first wait (ms); each next wait doubles, up to `maxDelayMs`. */
  readonly firstDelayMs: number;
  /** The longest wait between two tries (ms). */
  readonly maxDelayMs: number;
}

/** Waits `ms` milliseconds. */
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it settles with anything but a lost connection, waiting between tries;
 * rethrows the last lost connection once `policy.forMs` has passed since the first. `onLoss`
 * hears each lost connection (for a log line).
 */
export async function retryWhileUnreachable<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  onLoss?: (error: unknown, tries: number) => void,
): Promise<T> {
  let firstLoss: number | undefined;
  let delay = policy.firstDelayMs;
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConnectionLoss(error)) throw error;
      const now = Date.now();
      firstLoss ??= now;
      if (now - firstLoss >= policy.forMs) throw error;
      onLoss?.(error, tries);
      await sleep(Math.min(delay, policy.forMs - (now - firstLoss)));
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}
