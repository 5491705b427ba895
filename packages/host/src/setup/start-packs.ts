import type { RegisteredPack } from "./registered-pack";

/** The reason used when a Pack's start() throws something with no message. */
export const START_FAILED_REASON = "the Pack failed to start";

/**
 * The reason a failed start() gives: the error's message (or the thrown value as text) on one
 * line, each line break and the spaces around it becoming one space; START_FAILED_REASON when
 * that is empty.
 */
export function startFailureReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s*[\r\n]+\s*/g, " ").trim();
  return line === "" ? START_FAILED_REASON : line;
}

/**
 * Builds every Pack: calls each `start()` (all at once) and records the reason of each one
 * that throws or rejects, which makes that Pack unavailable to every run.
 */
export async function startPacks(packs: readonly RegisteredPack[]): Promise<void> {
  await Promise.all(
    packs.map(async (pack) => {
      try {
        await pack.definition.start?.();
      } catch (error) {
        pack.startFailure = startFailureReason(error);
      }
    }),
  );
}
