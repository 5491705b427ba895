/**
 * The messages of var, sys, ui and log, as the chapter words them ("Keeping state in var",
 * "Run facts in sys and ui", "Logging and lifecycle reports"). Messages marked "decided" fill
 * gaps in the chapter (see docs/design/state.md).
 */

/** `getmetatable(var)`, and of every table read from var. */
export const VAR_METATABLE_TEXT = "var is guarded";

/** `getmetatable(sys)`. */
export const SYS_METATABLE_TEXT = "sys is sealed";

/** The read-back error after the var global was replaced ("Keeping the var global in place"). */
export const VAR_REASSIGNED_MESSAGE =
  "the `var` global was reassigned; write `var.<field>` instead";

/** Decided: a var field set with a key that is not a string, as in `var[1] = 'x'`. */
export const VAR_STRING_KEY_MESSAGE = "var fields must be set by string key";

/** `{path} must be JSON data, got {type}` (function, thread, userdata). */
export function varMustBeJsonDataMessage(path: string, type: string): string {
  return `${path} must be JSON data, got ${type}`;
}

/** `{path} is too large to store`: an assigned table that runs the budget out. */
export function varTooLargeMessage(path: string): string {
  return `${path} is too large to store`;
}

/** `unknown sys field '{name}'`. */
export function unknownSysFieldMessage(name: string): string {
  return `unknown sys field '${name}'`;
}

/** `sys fields must be accessed by string key`. */
export const SYS_STRING_KEY_MESSAGE = "sys fields must be accessed by string key";

/** `sys is read-only; cannot set '{field}'`. */
export function sysReadOnlyMessage(field: string): string {
  return `sys is read-only; cannot set '${field}'`;
}

/** log called with no argument or with two or more. */
export const LOG_ARGUMENT_COUNT_MESSAGE = "log expects exactly one argument";
/** log called with a value that is not a string, or with a string that is not valid UTF-8. */
export const LOG_NOT_UTF8_MESSAGE = "log message must be a UTF-8 string";
/** log called with more than 256 characters. */
export const LOG_TOO_LONG_MESSAGE = "log message must be at most 256 characters";
/** log called with a newline, a control character, U+2028 or U+2029. */
export const LOG_CONTROL_MESSAGE = "log message must not contain newline or control characters";
/** A log call past the event quota. */
export const LOG_EVENT_QUOTA_MESSAGE = "lua log event budget exceeded";
/** A log call past the byte quota. */
export const LOG_BYTE_QUOTA_MESSAGE = "lua log cumulative byte budget exceeded";

/**
 * The var guard's other refusals, worded as json.encode's ("When json.encode refuses a value")
 * with the full target path in place of `{fn}: value...`: the conversion to JSON raises them.
 */
export const VAR_REFUSALS = {
  /** A string value that is not valid UTF-8 (decided, as json.encode's). */
  notUtf8: (path: string): string => `${path} is not valid UTF-8`,
  /** NaN or an infinity (decided, as json.encode's). */
  notFinite: (path: string, text: string): string => `${path} must be a finite number, got ${text}`,
  /** A string key that is not valid UTF-8; the path ends with the key (decided). */
  keyNotUtf8: (path: string): string => `${path} is a key that is not valid UTF-8`,
  /** A key that is neither an integer nor a string. */
  keyType: (path: string, type: string): string => `${path} has a ${type} key`,
  /** List items and named keys in one table. */
  mixes: (path: string): string => `${path} mixes list items and named keys`,
  /** A gap in a list. */
  missingItem: (path: string, index: number | bigint): string =>
    `${path} is missing list item [${index}]`,
  /** A table that contains itself. */
  containsItself: (path: string): string => `${path} contains itself`,
  /** A table past the 127th level (var itself is level 1). */
  tooDeep: (path: string): string => `${path} is nested more than 127 levels deep`,
  /** A sealed view whose data cannot be read, such as sys. */
  cannotRead: (path: string, label: string | undefined): string =>
    `${path} cannot be read${label === undefined ? "" : ` (${label})`}; copy the fields you need into a plain table`,
} as const;
