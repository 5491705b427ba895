/**
 * The texts of compaction: the compactor contract, `models.compact` and the `compactors` table
 * (docs/design/compactors.md). Every text here is ours, recorded there.
 */

/** Which call ran the compactor, as its refusals name it. */
export type CompactingCall = "models.loop" | "handle:loop" | "models.compact";

/** The most compactions one round may go through before the exhaustion is raised. */
export const MAX_COMPACTIONS_PER_ROUND = 3;

/** A compactor that returned something that is not a list of records. */
export function compactorReturnedMessage(fn: CompactingCall, what: string): string {
  return `${fn}: the compactor returned ${what}; return the compacted list of records, or call compactors.fail(history, info) to give up`;
}

/** What a compactor returned, as {@link compactorReturnedMessage} names it. */
export const NOT_A_LIST = "a table that is not a list";

/** A compactor that returned an empty list. */
export function compactorEmptyMessage(fn: CompactingCall): string {
  return `${fn}: the compactor returned an empty conversation`;
}

/** A compactor whose list breaks the well-formed rules. */
export function compactorMalformedMessage(
  fn: CompactingCall,
  index: number,
  problem: string,
): string {
  return `${fn}: the compactor returned a malformed conversation: record ${index} ${problem}`;
}

/** A compaction that did not make the request smaller (kind context_exhausted). */
export function noShrinkMessage(before: number, after: number): string {
  return before === after
    ? `the compactor did not shrink the conversation (about ${before} tokens before and after)`
    : `the compactor did not shrink the conversation (about ${before} tokens before, ${after} after)`;
}

/** The exhaustion of a round that went through every compaction it may. */
export function stillOverMessage(message: string): string {
  return `${message}; still over after ${MAX_COMPACTIONS_PER_ROUND} compactions`;
}

/** What `info.message` says for `models.compact`. */
export function explicitCompactionMessage(estimate: number, window: number, model: string): string {
  return `models.compact asked to compact the conversation (about ${estimate} tokens of the ${window}-token context window of ${model})`;
}

/** models.compact with other than one argument. */
export const COMPACT_ARITY_MESSAGE = "models.compact takes (compactor)";

/** models.compact over an empty `messages`. */
export const COMPACT_EMPTY_MESSAGE = "models.compact: messages is empty";

/** compactors.fail called without the arguments a compactor receives. */
export const FAIL_ARGUMENTS_MESSAGE =
  "compactors.fail takes (history, info): pass on the arguments your compactor received";

/** compactors.keep_last with a count that is not a positive whole number. */
export function keepLastCountMessage(value: string): string {
  return `compactors.keep_last takes a positive whole number of records, got ${value}`;
}

/** A built-in compactor called on something that is not a list. */
export function historyTypeMessage(fn: string, type: string): string {
  return `${fn} takes a list of records, got ${type}`;
}

/** compactors.summarize with an options value that is not a table. */
export function summarizeOptionsTypeMessage(type: string): string {
  return `compactors.summarize takes an options table, got ${type}`;
}

/** compactors.summarize with an option it does not know. */
export function summarizeUnknownOptionMessage(key: string): string {
  return `compactors.summarize: unknown option ${key}; the known options are keep, role, instructions`;
}

/** compactors.summarize's `keep` that is not a whole number of at least 1. */
export function summarizeKeepMessage(value: string): string {
  return `compactors.summarize: keep must be a whole number of at least 1, got ${value}`;
}

/** compactors.summarize's `instructions` that is not a non-empty string. */
export function summarizeInstructionsMessage(value: string): string {
  return `compactors.summarize: instructions must be a non-empty string, got ${value}`;
}

/** compactors.summarize's `role` that is not a declared label. */
export function summarizeRoleMessage(value: string): string {
  return `compactors.summarize: role must be a model role of this prompt, got ${value}`;
}

/** A summarising compactor with no role to run on. */
export function summarizeNoModelMessage(): string {
  return "compactors.summarize: this section has no model; pass the role option, or call models.use(label) first";
}

/** A summarising compactor over a list that breaks the well-formed rules. */
export function summarizeMalformedMessage(index: number, problem: string): string {
  return `compactors.summarize: record ${index} ${problem}`;
}

/** The default instructions of a summarising round. */
export const DEFAULT_SUMMARY_INSTRUCTIONS =
  "Summarise the conversation below for your own later use. Keep every fact, decision, open question, tool result and identifier that later turns may need. Reply with the summary only.";

/** What stands for the lines a summary prompt leaves out to fit. */
export const OMITTED_LINE = "[earlier records omitted]";

/** The record that replaces the summarised records. */
export function summaryRecordText(summary: string): string {
  return `Summary of the earlier conversation:\n${summary}`;
}

/** What getmetatable returns for the `compactors` table. */
export const COMPACTORS_METATABLE_TEXT = "compactors is sealed";

/** Assigning a field of the `compactors` table. */
export function compactorsReadOnlyMessage(key: string): string {
  return `compactors is read-only; cannot set '${key}'`;
}
