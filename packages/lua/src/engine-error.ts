/**
 * The thirteen error kinds of the Lua environment chapter ("The thirteen
 * error kinds"): the closed set of `kind` strings an error value can carry.
 */
export const ERROR_KINDS = [
  "lua",
  "store",
  "tool",
  "context_exhausted",
  "empty_model_reply",
  "tool_loop_exhausted",
  "out_of_scope_tool",
  "unbound_tool",
  "cancelled",
  "tasks_live",
  "task_not_owned",
  "task_consumed",
  "internal",
] as const;

/** One of the thirteen error kinds. */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The extra fields of an error value: strings, except the store's integer `count` and `valid_up_to`. */
export type ErrorFields = Readonly<Record<string, string | number>>;

/** Whether `value` is one of the thirteen error kinds. */
export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === "string" && (ERROR_KINDS as readonly string[]).includes(value);
}

/** How an EngineError ends the run when no block catches it. */
export interface EngineErrorOptions {
  /**
   * Marks a refusal of an exhausted Engine quota (a refused log call, a call or fanout
   * recursion past its cap). Such an error is kind `lua`, but left uncaught it ends the run
   * with run error kind `Quota` instead of `Lua`. The mark travels with the error value in
   * Lua (it is not a field) and survives a re-raise of the exact value.
   */
  readonly quota?: boolean;
  /**
   * The run error kind the Engine ends the run with when the value is uncaught, instead of the
   * one its kind maps to (an `internal` failure of a model round ends it as `Completion`). A
   * name the Engine defines; this package only carries it, with the value in Lua (not a field)
   * through every re-raise of the exact value, like the quota mark.
   */
  readonly runErrorKind?: string;
  /**
   * A cause text the run error carries when the value ends the run uncaught (the model round a
   * failure came from). Carried like {@link runErrorKind}.
   */
  readonly causeText?: string;
}

/**
 * An Engine failure raised from JavaScript. A host function throws (or
 * rejects with) an EngineError, and the VM raises it in Lua as an error
 * value: a table with `kind`, `message` and the kind's own fields, sharing
 * the VM's one error metatable, raised at level 0 (no position prefix).
 */
export class EngineError extends Error {
  /** The error kind. */
  readonly kind: ErrorKind;
  /** The kind's own fields, beside `kind` and `message`. */
  readonly fields: ErrorFields;
  /** Whether this is an exhausted-quota refusal (see EngineErrorOptions.quota). */
  readonly quota: boolean;
  /** The run error kind it ends the run with when uncaught, if not its kind's (see EngineErrorOptions). */
  readonly runErrorKind: string | undefined;
  /** The cause text the run error carries when it is uncaught (see EngineErrorOptions). */
  readonly causeText: string | undefined;

  /**
   * @param kind the error kind
   * @param message the display text; when empty, the kind itself (as the chapter says)
   * @param fields the kind's own fields
   * @param options how the error ends the run when uncaught
   */
  constructor(
    kind: ErrorKind,
    message: string,
    fields: ErrorFields = {},
    options: EngineErrorOptions = {},
  ) {
    super(message === "" ? kind : message);
    this.name = "EngineError";
    this.kind = kind;
    this.fields = fields;
    this.quota = options.quota === true;
    this.runErrorKind = options.runErrorKind;
    this.causeText = options.causeText;
  }
}

/** An argument or misuse error from an Engine function: kind `lua`, fixed text naming the argument. */
export function argumentError(message: string): EngineError {
  return new EngineError("lua", message);
}

/**
 * The refusal of an exhausted Engine quota, such as `lua log event budget exceeded` or
 * `call recursion exceeded cap of 8`: kind `lua`, and run error kind `Quota` when uncaught.
 */
export function quotaError(message: string): EngineError {
  return new EngineError("lua", message, {}, { quota: true });
}
