/**
 * The message catalogue of the json global, as text. `fn` is the Lua function named in the
 * message (`json.encode`, `json.encode_lines`, `json.decode`, `json.decode_lines`), `path` a text
 * from `formatJsonPath`, and `type` an Engine type name (`integer`, `number`, `lightuserdata`...).
 *
 * Messages marked "chapter" are quoted from the chapter; "decided" ones fill its gaps
 * (see docs/design/json.md).
 */

/** Chapter: `{fn} expects a string, got {type}` (json.decode, json.decode_lines). */
export function expectsStringMessage(fn: string, type: string): string {
  return `${fn} expects a string, got ${type}`;
}

/** Chapter: `json.array expects a table or no argument, got {type}`. */
export function arrayExpectsTableMessage(type: string): string {
  return `json.array expects a table or no argument, got ${type}`;
}

/** Chapter: `json.array: the table already has a metatable`. */
export const ARRAY_HAS_METATABLE_MESSAGE = "json.array: the table already has a metatable";

/** Chapter: `{fn}: options must be a table, got {type}`. */
export function optionsMustBeTableMessage(fn: string, type: string): string {
  return `${fn}: options must be a table, got ${type}`;
}

/**
 * Chapter: `{fn}: unknown option {key}`. `key` is the key itself for a string or integer key,
 * and its type name otherwise (`unknown option boolean`, `unknown option number`).
 */
export function unknownOptionMessage(fn: string, key: string): string {
  return `${fn}: unknown option ${key}`;
}

/** Chapter: `{fn}: option debug must be a boolean, got {type}`. */
export function optionDebugMustBeBooleanMessage(fn: string, type: string): string {
  return `${fn}: option debug must be a boolean, got ${type}`;
}

/** Chapter: `json.encode_lines expects a list, got {type}`, for a value that is not a table. */
export function encodeLinesExpectsListMessage(type: string): string {
  return `json.encode_lines expects a list, got ${type}`;
}

/**
 * Chapter: `json.encode_lines expects a list, got a table with a {type} key`, for an unmarked
 * table with keys but no list items, naming its first key in visiting order.
 */
export function encodeLinesGotKeyMessage(keyType: string): string {
  return `json.encode_lines expects a list, got a table with a ${keyType} key`;
}

/** Chapter: `{fn}: {path} must be JSON data, got {type}` (function, thread, userdata...). */
export function mustBeJsonDataMessage(fn: string, path: string, type: string): string {
  return `${fn}: ${path} must be JSON data, got ${type}`;
}

/** Chapter: `{fn}: {path} mixes list items and named keys`. */
export function mixesListItemsMessage(fn: string, path: string): string {
  return `${fn}: ${path} mixes list items and named keys`;
}

/** Chapter: `{fn}: {path} is missing list item [{n}]`, `n` the first absent index of 1..count. */
export function missingListItemMessage(fn: string, path: string, index: number | bigint): string {
  return `${fn}: ${path} is missing list item [${index}]`;
}

/** Chapter: `{fn}: {path} has a {type} key` (boolean, number, table, function, ...). */
export function hasKeyOfTypeMessage(fn: string, path: string, keyType: string): string {
  return `${fn}: ${path} has a ${keyType} key`;
}

/** Chapter: `{fn}: {path} contains itself`. */
export function containsItselfMessage(fn: string, path: string): string {
  return `${fn}: ${path} contains itself`;
}

/** Chapter: `{fn}: {path} is nested more than {maxDepth} levels deep` (127). */
export function nestedTooDeepMessage(fn: string, path: string, maxDepth = 127): string {
  return `${fn}: ${path} is nested more than ${maxDepth} levels deep`;
}

/** Chapter: `{fn}: value is too large to encode` — the one message with no path. */
export function tooLargeMessage(fn: string): string {
  return `${fn}: value is too large to encode`;
}

/**
 * Chapter: `{fn}: {path} cannot be read ({label}); copy the fields you need into a plain table`,
 * the parenthesis left out when the sealed view's `__metatable` is not a string (`label`
 * undefined).
 */
export function cannotReadMessage(fn: string, path: string, label: string | undefined): string {
  const why = label === undefined ? "" : ` (${label})`;
  return `${fn}: ${path} cannot be read${why}; copy the fields you need into a plain table`;
}

/** Decided: `{fn}: {path} is not valid UTF-8`, for a string value that is not. */
export function notValidUtf8Message(fn: string, path: string): string {
  return `${fn}: ${path} is not valid UTF-8`;
}

/**
 * Decided: `{fn}: {path} is a key that is not valid UTF-8`, where `path` ends with the key itself
 * (shown with replacement characters), as in `json.encode: value.caf\uFFFD is a key that ...`.
 */
export function keyNotValidUtf8Message(fn: string, path: string): string {
  return `${fn}: ${path} is a key that is not valid UTF-8`;
}

/**
 * Decided: `{fn}: {path} must be a finite number, got {NaN|Infinity|-Infinity}`, for NaN and
 * the infinities in strict mode.
 */
export function notFiniteMessage(fn: string, path: string, text: string): string {
  return `${fn}: ${path} must be a finite number, got ${text}`;
}

/**
 * Decided, JS model only: `{fn}: {path} is outside the 64-bit integer range`, for a bigint that
 * no Lua integer can hold.
 */
export function outsideInt64Message(fn: string, path: string): string {
  return `${fn}: ${path} is outside the 64-bit integer range`;
}

/** Debug mode's placeholder strings, written as JSON string values. */
export const DEBUG_PLACEHOLDERS = Object.freeze({
  function: "[function]",
  thread: "[thread]",
  userdata: "[userdata]",
  cycle: "[cycle]",
  tooDeep: "[too deep]",
});

/** Debug mode's placeholder for a sealed view that cannot be read: `[cannot read: {label}]`. */
export function cannotReadPlaceholder(label: string | undefined): string {
  return label === undefined ? "[cannot read]" : `[cannot read: ${label}]`;
}

/** A json.encode / json.encode_lines refusal raised on the JS side, with its full message. */
export class JsonEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonEncodeError";
  }
}
