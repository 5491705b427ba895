/**
 * The run error kinds (docs/design/outcomes.md), in the order the outcomes chapter lists them:
 * the one definition every package uses.
 */
export const RUN_ERROR_KINDS = [
  "Lua",
  "Tool",
  "RequirementsUnmet",
  "Quota",
  "Vfs",
  "ContextExhausted",
  "Completion",
  "Determinism",
] as const;

/** A run error kind. */
export type RunErrorKind = (typeof RUN_ERROR_KINDS)[number];

/** The uncaught Engine error value that ended a run: its kind and fields. */
export interface RunErrorValue {
  /**
   * The error value's kind: one of the thirteen error kinds of the Lua environment chapter
   * (`lua`, `store`, `tool`, …; `@runvil/lua`'s ErrorKind).
   */
  readonly kind: string;
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
