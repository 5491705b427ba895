import { EngineError } from "../lua";
import { MAX_COMPACTIONS_PER_ROUND, noShrinkMessage, stillOverMessage } from "./compact-texts";

/** Why a compactor runs: a precheck refusal, a provider's refusal, or models.compact. */
export type CompactionReason = "precheck" | "provider" | "explicit";

/** The `info` table a compactor receives (docs/design/compactors.md, "The compactor contract"). */
export interface CompactionInfo {
  readonly reason: CompactionReason;
  /** The estimate of the request that did not fit (the reply's reserve not included). */
  readonly estimated_tokens: number;
  readonly context_window: number;
  readonly model: string;
  readonly role: string;
  readonly turn: number;
  /** 1, 2, 3 within one round. */
  readonly attempt: number;
  /** The exhaustion's message (what compactors.fail raises). */
  readonly message: string;
}

/** What a round does with a context exhaustion: compact (the attempt's number), or raise. */
export type ExhaustionStep =
  | { readonly compact: true; readonly attempt: number }
  | { readonly compact: false; readonly error: EngineError };

/** The reason a `context_exhausted` error value carries, when it is one of the three. */
export function exhaustionReason(error: EngineError): CompactionReason | undefined {
  const reason = error.fields.reason;
  return reason === "precheck" || reason === "provider" || reason === "explicit"
    ? reason
    : undefined;
}

/**
 * The retry policy of one round (docs/design/compactors.md, steps 1 and 5): without a
 * compactor the exhaustion is raised as it is; with one, the round compacts up to
 * {@link MAX_COMPACTIONS_PER_ROUND} times, and the next exhaustion is raised with its reason and
 * `; still over after 3 compactions` after its message.
 */
export function nextStep(
  error: EngineError,
  compactionsSoFar: number,
  hasCompactor: boolean,
): ExhaustionStep {
  if (!hasCompactor) return { compact: false, error };
  if (compactionsSoFar < MAX_COMPACTIONS_PER_ROUND) {
    return { compact: true, attempt: compactionsSoFar + 1 };
  }
  return {
    compact: false,
    error: new EngineError("context_exhausted", stillOverMessage(error.message), error.fields),
  };
}

/**
 * The shrink check (step 3): a compaction must make the request's estimate smaller; otherwise
 * the exhaustion is raised with the same reason.
 */
export function shrinkRefusal(
  before: number,
  after: number,
  reason: CompactionReason,
): EngineError | undefined {
  if (after < before) return undefined;
  return new EngineError("context_exhausted", noShrinkMessage(before, after), { reason });
}
