import type { Entry } from "../walk/entry";
import type { CompactionReason } from "./compaction-policy";

/** Reports a compactor about to run (`compaction_started`). */
export function reportCompactionStarted(
  entry: Entry,
  turn: number,
  reason: CompactionReason,
  attempt: number,
  records: number,
  estimate: number,
): void {
  entry.ctx.emit(entry.source, "compaction_started", {
    turn,
    reason,
    attempt,
    records,
    estimated_tokens: estimate,
  });
}

/** Reports a compacted list that replaced the conversation (`compaction_succeeded`). */
export function reportCompactionSucceeded(
  entry: Entry,
  turn: number,
  records: number,
  estimate: number,
): void {
  entry.ctx.emit(entry.source, "compaction_succeeded", {
    turn,
    records,
    estimated_tokens: estimate,
  });
}

/** Reports a compaction that raised or was refused (`compaction_failed`). */
export function reportCompactionFailed(entry: Entry, turn: number, message: string): void {
  entry.ctx.emit(entry.source, "compaction_failed", { turn, message });
}
