import { argumentError, type EngineError } from "../lua";
import { checkConversation, type StagedRecord } from "../messages/conversation-check";
import type { MessageRecord } from "../messages/message-record";
import {
  type CompactingCall,
  compactorEmptyMessage,
  compactorMalformedMessage,
  compactorReturnedMessage,
  NOT_A_LIST,
} from "./compact-texts";

/**
 * The refusal of a compactor's result that is not a list (compactors.md step 2): `what` is the
 * Lua type it returned, or `list` for a table that is not a sequence.
 */
export function compactorReturnedError(fn: CompactingCall, what: string): EngineError {
  return argumentError(compactorReturnedMessage(fn, what === "list" ? NOT_A_LIST : what));
}

/**
 * A compactor's result, staged element by element, checked whole (compactors.md step 2;
 * messages.md "Well-formed lists"): the records, or a kind lua refusal naming the first
 * problem. An empty list is refused too.
 */
export function compactorRecords(
  fn: CompactingCall,
  staged: readonly StagedRecord[],
): readonly MessageRecord[] {
  if (staged.length === 0) throw argumentError(compactorEmptyMessage(fn));
  const checked = checkConversation(staged);
  if (!checked.ok)
    throw argumentError(compactorMalformedMessage(fn, checked.index, checked.problem));
  return checked.records;
}
