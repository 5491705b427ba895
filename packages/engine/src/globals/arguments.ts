import { argumentError, type HostCall } from "../lua";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The type name argument errors use: Lua's type name, except that integers and floats are
 * told apart (`integer`, `number`). A float with an integral value reads as `integer`: the VM
 * hands it over as a JavaScript number.
 */
export function argumentTypeName(call: HostCall, index: number): string {
  const type = call.type(index);
  if (type !== "number") return type;
  const value = call.value(index);
  return typeof value === "bigint" || Number.isInteger(value) ? "integer" : "number";
}

/** Argument `index` as a string; else `{name} must be a string, got {type}` (kind lua). */
export function stringArgument(call: HostCall, index: number, name: string): string {
  if (call.type(index) !== "string") {
    throw argumentError(`${name} must be a string, got ${argumentTypeName(call, index)}`);
  }
  return call.text(index) ?? "";
}

/** `{name} must not be empty`: a text argument that must hold something. */
export function emptyTextMessage(name: string): string {
  return `${name} must not be empty`;
}

/** `{name} is not valid UTF-8`: a text argument whose bytes are not UTF-8. */
export function textNotUtf8Message(name: string): string {
  return `${name} is not valid UTF-8`;
}

/**
 * Argument `index` as non-empty UTF-8 text, with the chapter's three messages of a string
 * argument ("Argument errors"): `{name} must be a string, got {type}`, `{name} must not be
 * empty`, `{name} is not valid UTF-8` (all kind lua).
 */
export function nonEmptyTextArgument(call: HostCall, index: number, name: string): string {
  if (call.type(index) !== "string") {
    throw argumentError(`${name} must be a string, got ${argumentTypeName(call, index)}`);
  }
  const bytes = call.bytes(index) ?? new Uint8Array();
  if (bytes.length === 0) throw argumentError(emptyTextMessage(name));
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw argumentError(textNotUtf8Message(name));
  }
}

/**
 * Returns `promise` for a host function to suspend on, marked as handled: when the VM is
 * cancelled at the moment the block yields, nobody waits for it any more, and its rejection
 * must not surface as an unhandled rejection.
 */
export function suspendOn<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Argument `index` as store text: the string when its bytes are valid UTF-8, else the raw
 * bytes (so the store, not a lossy conversion, judges them); `{name} must be a string, got
 * {type}` for any other type.
 */
export function storeTextArgument(
  call: HostCall,
  index: number,
  name: string,
): string | Uint8Array {
  if (call.type(index) !== "string") {
    throw argumentError(`${name} must be a string, got ${argumentTypeName(call, index)}`);
  }
  const bytes = call.bytes(index) ?? new Uint8Array();
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return bytes;
  }
}
