/**
 * Which records the built-in compactors keep (docs/design/compactors.md "Built-ins"), computed
 * from the records' roles alone (index 0 is the oldest record; a role that is not a string
 * counts as an ordinary record, and the loop's check of the result names the problem). Every
 * function returns the kept indices in order, and never cuts inside a tool round: a kept part
 * never starts with a tool record whose call it dropped.
 */

/** A record's role as the selection reads it. */
export type SelectionRole = string | null;

function systemIndices(roles: readonly SelectionRole[]): number[] {
  const out: number[] = [];
  for (const [i, role] of roles.entries()) if (role === "system") out.push(i);
  return out;
}

/**
 * Where a tail of the last `count` of `candidates` starts (an index into `candidates`), moved
 * earlier while the record there is a tool record, so the tail starts at the assistant record
 * that made the calls.
 */
function tailStart(
  roles: readonly SelectionRole[],
  candidates: readonly number[],
  count: number,
): number {
  let start = Math.max(0, candidates.length - count);
  while (start > 0 && roles[candidates[start] ?? 0] === "tool") start--;
  return start;
}

/**
 * `compactors.keep_last(n)`: the system records, the first user record (the task), and the
 * last `n` other records.
 */
export function keepLastIndices(roles: readonly SelectionRole[], n: number): number[] {
  const firstUser = roles.indexOf("user");
  const others: number[] = [];
  for (const [i, role] of roles.entries()) {
    if (role !== "system" && i !== firstUser) others.push(i);
  }
  const kept = new Set(systemIndices(roles));
  if (firstUser >= 0) kept.add(firstUser);
  for (const i of others.slice(tailStart(roles, others, n))) kept.add(i);
  return [...kept].sort((a, b) => a - b);
}

/** `compactors.clear`: the system records and the last user record (the current request). */
export function clearIndices(roles: readonly SelectionRole[]): number[] {
  const kept = systemIndices(roles);
  const lastUser = roles.lastIndexOf("user");
  if (lastUser >= 0) kept.push(lastUser);
  return kept.sort((a, b) => a - b);
}

/**
 * `compactors.summarize`'s cut: the index where the kept tail starts (the last `keep` records
 * that are not system records, moved out of a tool round), and the older records before it
 * that are not system records, which the summary replaces. No older records: nothing to
 * summarise.
 */
export function summaryCut(
  roles: readonly SelectionRole[],
  keep: number,
): { readonly start: number; readonly older: readonly number[] } {
  const others: number[] = [];
  for (const [i, role] of roles.entries()) if (role !== "system") others.push(i);
  const at = tailStart(roles, others, keep);
  const start = others[at] ?? roles.length;
  return { start, older: others.slice(0, at) };
}
