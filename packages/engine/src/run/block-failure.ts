import type { RunError } from "@runvil/protocol";
import { type BlockFailure, uncaughtError } from "../lua";
import type { ScopeEnd } from "../scope/scope";
import type { Entry } from "../walk/entry";
import { runErrorKindOf } from "./run-error-kind";

/** The headline of a failed H1 gate. */
export function gateFailedMessage(title: string): string {
  return `the H1 gate of \`${title}\` failed`;
}

/**
 * How a block's failure ends its scope (docs/design/outcomes.md; the root scope's ending is the
 * run's): `stop` when the scope already has an ending (the block was stopped because of it) or,
 * for a block the count hook stopped, when a cancel or stop source asks for it now (the hook
 * only reads the sources; this records the ending, docs/design/stop.md), else the cancel or the
 * run error, with the H1 gate applied to a `Lua` failure of an H1 block.
 */
export function blockFailureEnding(entry: Entry, failure: BlockFailure): ScopeEnd | "stop" {
  const { ctx, scope } = entry;
  if (scope.ending !== undefined) return "stop";
  if (failure.reason === "cancelled" && scope.shouldStop()) return "stop";
  const uncaught = uncaughtError(failure, ctx.locate);
  if (uncaught.outcome === "cancelled") return { kind: "cancelled" };
  const kind = runErrorKindOf(uncaught.error) ?? "Lua";
  const value =
    failure.errorValue === undefined
      ? {}
      : { value: { kind: uncaught.error.kind, fields: uncaught.error.fields } };
  if (entry.isH1 && kind === "Lua") {
    return failed(entry, "RequirementsUnmet", gateFailedMessage(entry.name), [uncaught.message]);
  }
  const causes = uncaught.error.causeText === undefined ? [] : [uncaught.error.causeText];
  return {
    kind: "failed",
    error: { ...errorOf(entry, kind, uncaught.message, causes), ...value },
  };
}

/** A run failure of `entry` with `kind` and `message` (the ending of its scope). */
export function failed(
  entry: Entry,
  kind: RunError["kind"],
  message: string,
  causes: readonly string[] = [],
): ScopeEnd {
  return { kind: "failed", error: errorOf(entry, kind, message, causes) };
}

function errorOf(
  entry: Entry,
  kind: RunError["kind"],
  message: string,
  causes: readonly string[],
): RunError {
  return { kind, message, causes, entry: entry.id, section: entry.name };
}
