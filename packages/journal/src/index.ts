export { decodeValue, encodeOutput, encodeValue, type JournalValue } from "./codec";
export { failureError, recordFailure } from "./failure";
export {
  changedPath,
  createIntentPort,
  type IntentPortOptions,
  storePathText,
} from "./intent-port";
export {
  type ClaimRunOptions,
  EVENT_COMMIT_MS,
  type Journal,
  type ListRunsOptions,
  type RunClaim,
  type RunRecorder,
} from "./journal";
export { JournalError, type JournalErrorReason } from "./journal-error";
export { createJournalPort, type JournalPort } from "./journal-port";
export { isPgUrl, type OpenJournalOptions, openJournal } from "./open-journal";
export { openPgJournal, type PgJournalOptions } from "./pg/pg-journal";
export { PG_SCHEMA_VERSION } from "./pg/schema";
export { promptHash } from "./prompt-hash";
export {
  EFFECT_KINDS,
  type EffectKind,
  type EffectRecord,
  type EventRecord,
  type RecordedFailure,
  type RecordedRun,
  type RunCounts,
  type RunEnding,
  type RunInputs,
  type RunOwner,
  type RunSummary,
  type StoreIntent,
} from "./records";
export {
  createReplayPort,
  type Divergence,
  type DivergencePlace,
  type EventComparison,
  type ReplayPort,
  type ReplayPortOptions,
} from "./replay-port";
export { createResumePort, type ResumePort, type ResumePortOptions } from "./resume-port";
export { type OwnerState, ownerState } from "./run-owner";
export { SQLITE_SCHEMA_VERSION } from "./sqlite/schema";
export { openSqliteJournal, type SqliteJournalOptions } from "./sqlite/sqlite-journal";
export { countToolCalls, type ToolCallCounts } from "./tool-call-counts";
