/** The texts of `tasks.fanout` (docs/design/fanout.md, "Messages we wrote"). */

/** A fanout takes at most this many members. */
export const MAX_FANOUT_MEMBERS = 10_000;

export const FANOUT_ARITY_MESSAGE = "tasks.fanout takes (target, collection)";

/** The depth cap (kind lua, a quota refusal: uncaught it ends the run as Quota). */
export const FANOUT_RECURSION_MESSAGE = "tasks.fanout recursion exceeded cap of 8";

/** `getmetatable` of a result list or of an entry's shown metatable. */
export const FANOUT_RESULTS_LABEL = "fanout results are read-only";

/** A collection that is not a table. */
export function notACollectionMessage(type: string): string {
  return `tasks.fanout takes a collection table, got ${type}`;
}

/** A key with no fixed order. */
export function unorderedKeyMessage(type: string): string {
  return `tasks.fanout: the collection has a ${type} key, whose order is not fixed`;
}

/** A sealed view that cannot be read ({label}: its `__metatable` text). */
export function unreadableCollectionMessage(label: string | undefined): string {
  const why = label === undefined ? "" : ` (${label})`;
  return `tasks.fanout: collection cannot be read${why}; copy the members into a plain table`;
}

/** Too many members. */
export function tooManyMembersMessage(count: number): string {
  return `tasks.fanout: the collection has ${count} members, over the limit of ${MAX_FANOUT_MEMBERS}`;
}

/** Assigning into a result view. */
export function readOnlyResultsMessage(key: string): string {
  return `${FANOUT_RESULTS_LABEL}; cannot set '${key}'`;
}
