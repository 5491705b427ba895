import type { RegisteredPack } from "./registered-pack";

/**
 * Closes every Pack: calls each `close()` (all at once) and waits until all have settled. A
 * close that throws or rejects is ignored, so one Pack cannot keep the others open.
 */
export async function closePacks(packs: readonly RegisteredPack[]): Promise<void> {
  await Promise.all(
    packs.map(async (pack) => {
      try {
        await pack.definition.close?.();
      } catch {
        // A Pack's close must not throw (the SDK says so); one that does changes nothing.
      }
    }),
  );
}
