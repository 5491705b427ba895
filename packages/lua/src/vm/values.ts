import type { EngineError } from "../engine-error";
import type { HostCall } from "./host-call";

/** A Lua type name, as Lua's `type()` returns it. */
export type LuaTypeName =
  | "nil"
  | "boolean"
  | "number"
  | "string"
  | "table"
  | "function"
  | "userdata"
  | "thread";

/**
 * A Lua value that has no JavaScript counterpart (a Lua function, a userdata, a thread), read
 * back from Lua. It records only the type; the value itself stays in Lua.
 */
export class LuaOpaque {
  /** The Lua type, such as `"function"`. */
  readonly type: LuaTypeName;

  constructor(type: LuaTypeName) {
    this.type = type;
  }
}

/** A Lua table read as, or pushed from, a plain object with string keys. */
export interface LuaRecord {
  readonly [key: string]: LuaValue;
}

/**
 * A value crossing between JavaScript and Lua.
 *
 * Pushing: `null` and `undefined` push nil; a boolean a boolean; a number an integer when it is a
 * safe integer (and not -0), otherwise a float; a bigint an integer (64-bit, exact; a RangeError
 * outside [-2^63, 2^63-1]); a string its UTF-8 bytes; a Uint8Array its bytes; an array a table
 * with keys 1..n; a plain object a table with its own string keys; a function a host function
 * (see HostFunction); an EngineError an error value (a plain table with its kind, message and
 * fields in a VM without installErrors). Cyclic arrays or objects are refused with a TypeError.
 *
 * Reading: nil reads `null`; an integer a number when it is a safe integer, otherwise a bigint;
 * a float a number; a string its text (UTF-8 decoded, invalid bytes become U+FFFD) or, where
 * bytes are asked for, a Uint8Array; a table whose keys are exactly 1..n (n ≥ 1) an array, any
 * other table an object (keys as text: a number key as Lua writes it, a boolean as true/false);
 * a function, userdata or thread a {@link LuaOpaque}.
 */
export type LuaValue =
  | null
  | undefined
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly LuaValue[]
  | LuaRecord
  | HostFunction
  | LuaOpaque
  | EngineError;

/**
 * What a host function returns: nothing (no results), or the list of its results in order
 * (`[table]` to return one table). A Promise of either makes the call suspend the block.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: so that a host function with no return statement type-checks
export type HostResult = readonly LuaValue[] | undefined | void;

/**
 * A JavaScript function Lua can call. It reads its arguments through `call` while it runs, and
 * returns its results, or a Promise of them: then the calling block suspends until the Promise
 * settles and resumes with its results, or with its rejection raised as a Lua error. A thrown
 * exception (or a rejection) becomes a Lua error raised at the call site with no position
 * prefix: a {@link HostError}'s value as is, an Error's message, anything else as text.
 */
export type HostFunction = (call: HostCall) => HostResult | Promise<HostResult>;

/**
 * Thrown (or rejected) by a host function to raise a specific Lua value, such as a table, as the
 * Lua error instead of a message.
 */
export class HostError extends Error {
  /** The value raised in Lua. */
  readonly value: LuaValue;

  constructor(value: LuaValue, message?: string) {
    super(message ?? (typeof value === "string" ? value : "Lua error value"));
    this.name = "HostError";
    this.value = value;
  }
}
