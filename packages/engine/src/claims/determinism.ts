import type { StoreOperation } from "@runvil/protocol";
import { ScopeEnded } from "../scope/scope";
import type { Entry } from "../walk/entry";
import type { StoreConflict } from "./store-claims";

/** The run error message of a store conflict (ours; ids in id order). */
export function storeConflictMessage(conflict: StoreConflict): string {
  const [a, b] = conflict.tasks;
  return `store conflict: tasks ${a} and ${b} use \`${conflict.path}\` concurrently, and at least one of them changes it`;
}

/**
 * Checks `operation` of `entry` by the store claim rule before it is issued. On a conflict the
 * run ends at once as `Determinism` (no error value, so no pcall sees it): `store_conflict` is
 * reported, the root scope fails, which cancels every scope, and the operation is never sent
 * (this throws ScopeEnded for the entry's scope).
 */
export function claimStoreOp(entry: Entry, operation: StoreOperation): void {
  const { ctx, scope } = entry;
  const conflict = ctx.claims.claim(entry.chain.taskId, operation);
  if (conflict === undefined) return;
  ctx.emit(entry.source, "store_conflict", { path: conflict.path, tasks: [...conflict.tasks] });
  scope.root.end({
    kind: "failed",
    error: {
      kind: "Determinism",
      message: storeConflictMessage(conflict),
      causes: [],
      entry: entry.id,
      section: entry.name,
    },
  });
  throw new ScopeEnded(scope);
}
