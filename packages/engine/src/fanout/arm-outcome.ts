import type { RunError } from "@runvil/protocol";
import { EngineError, type ErrorKind, isErrorKind } from "../lua";
import type { TaskOutcome } from "../tasks/task-set";

/** One result entry's fields as the host hands them to fanout.lua. */
export interface ArmEntry {
  readonly ok: boolean;
  readonly text: string;
  readonly exhausted: boolean;
}

/** Kinds that end an arm with an `ok = false` entry marked `exhausted`. */
const EXHAUSTED_KINDS: ReadonlySet<string> = new Set(["tool_loop_exhausted", "context_exhausted"]);

/** Work failures: the arm's entry says so and the fanout goes on (docs/design/fanout.md). */
const ENTRY_KINDS: ReadonlySet<string> = new Set([
  ...EXHAUSTED_KINDS,
  "tool",
  "unbound_tool",
  "out_of_scope_tool",
  "empty_model_reply",
  "store",
]);

/** The error value kind of a failed chain (`lua` when no error value ended it). */
function valueKind(error: RunError): ErrorKind {
  const kind = error.value?.kind;
  return kind !== undefined && isErrorKind(kind) ? kind : "lua";
}

function headline(error: RunError): string {
  return error.message.split("\n")[0] ?? error.message;
}

/**
 * What an arm's outcome makes of its entry (docs/design/fanout.md, Results): a success or a
 * work failure is an entry; any other failure (an authoring failure) is the error the fanout
 * raises, kind, fields and run error kind kept. Undefined for an arm the fanout cancelled.
 */
export function armEntryOf(
  outcome: TaskOutcome,
): { readonly entry: ArmEntry } | { readonly raise: EngineError } {
  if (outcome.ok) return { entry: { ok: true, text: outcome.result ?? "", exhausted: false } };
  const kind = valueKind(outcome.error);
  if (!outcome.cancelled && ENTRY_KINDS.has(kind)) {
    return {
      entry: { ok: false, text: headline(outcome.error), exhausted: EXHAUSTED_KINDS.has(kind) },
    };
  }
  return { raise: raisedError(outcome.error, kind) };
}

/** An arm's failure raised again at the fanout call: uncaught, it ends the run as the arm's did. */
function raisedError(error: RunError, kind: ErrorKind): EngineError {
  return new EngineError(kind, headline(error), error.value?.fields ?? {}, {
    quota: error.kind === "Quota",
    runErrorKind: error.kind,
    ...(error.causes[0] === undefined ? {} : { causeText: error.causes[0] }),
  });
}
