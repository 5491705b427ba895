import type { ErrorKind } from "../lua";

/** The run error kinds (docs/design/outcomes.md). */
export type RunErrorKind =
  | "Lua"
  | "Tool"
  | "RequirementsUnmet"
  | "Quota"
  | "Vfs"
  | "ContextExhausted"
  | "Completion"
  | "Determinism";

/** The uncaught Engine error value that ended a run: its kind and fields. */
export interface RunErrorValue {
  readonly kind: ErrorKind;
  readonly fields: Readonly<Record<string, string | number>>;
}

/** Why a run failed. */
export interface RunError {
  /** The run error kind. */
  readonly kind: RunErrorKind;
  /** The message: its first line is the headline; a Lua runtime error's traceback follows. */
  readonly message: string;
  /** Cause texts, outermost first (a failed H1 gate keeps the Lua failure's message here). */
  readonly causes: readonly string[];
  /** The uncaught Engine error value, when one ended the run. */
  readonly value?: RunErrorValue;
  /** The `sys.id` of the entry that failed, when one did. */
  readonly entry?: string;
  /** The section name of that entry (the title for the H1 pass). */
  readonly section?: string;
}
