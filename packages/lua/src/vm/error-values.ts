/**
 * The VM side of error values: building one from an EngineError (raised by a host function, or
 * returned among its results), and recognizing one when a block fails. Internal to the package
 * (used by src/vm/dispatcher.ts, marshal.ts and run-block.ts); error values exist only in VMs
 * where installErrors ran (src/errors/), which builds the helpers this module reads from the VM's
 * private table. It sits in vm/ so that the VM never imports the errors feature above it.
 */
import {
  EngineError,
  type EngineErrorOptions,
  type ErrorFields,
  type ErrorKind,
  isErrorKind,
} from "../engine-error";
import type { LuaState } from "../module";
import { LUA_REGISTRYINDEX, LuaStatus, LuaTypeTag } from "../raw-api";
import type { LuaKernel } from "./kernel";
import { MAX_LIMIT_BYTES, type MemoryAccount } from "./limit-allocator";
import { PRIVATE_REGISTRY_KEY } from "./sandbox";
import type { LuaValue } from "./values";

/** The field of the VM's private table that holds the error helpers (see installErrors). */
export const ERRORS_PRIVATE_FIELD = "errors";

/** What building an error value needs: the kernel, and a way to push the fields' values. */
export interface ErrorValueContext {
  readonly kernel: LuaKernel;
}

/**
 * Pushes the `errors` helpers table of the VM's private table and returns true; pushes nothing
 * and returns false when installErrors did not run.
 */
function pushHelpers(kernel: LuaKernel, L: LuaState): boolean {
  const { x } = kernel;
  x.lua_getfield(L, LUA_REGISTRYINDEX, kernel.cString(PRIVATE_REGISTRY_KEY));
  if (x.lua_type(L, -1) === LuaTypeTag.TABLE && rawField(kernel, L, -1, ERRORS_PRIVATE_FIELD)) {
    x.lua_rotate(L, -2, -1);
    x.lua_settop(L, -2);
    return true;
  }
  x.lua_settop(L, -2);
  return false;
}

/**
 * Pushes `t[name]` (raw) of the table at `table` and returns true when it is a table or a
 * function; otherwise pops it and returns false.
 */
function rawField(kernel: LuaKernel, L: LuaState, table: number, name: string): boolean {
  const { x } = kernel;
  const index = table < 0 && table > LUA_REGISTRYINDEX ? x.lua_gettop(L) + table + 1 : table;
  kernel.pushText(L, name);
  const type = x.lua_rawget(L, index);
  if (type === LuaTypeTag.TABLE || type === LuaTypeTag.FUNCTION) return true;
  x.lua_settop(L, -2);
  return false;
}

/**
 * Pushes the error metatable (loading the helpers on first use, in protected mode) and returns
 * true, or pushes nothing and returns false. `helpers` is the absolute index of `errors`.
 */
function pushMeta(kernel: LuaKernel, L: LuaState, helpers: number): boolean {
  const { x } = kernel;
  if (rawField(kernel, L, helpers, "meta")) return true;
  if (!rawField(kernel, L, helpers, "load")) return false;
  const status = x.lua_pcallk(L, 0, 0, 0, 0, 0);
  kernel.clearUnwinding();
  if (status !== LuaStatus.OK) {
    x.lua_settop(L, -2);
    return false;
  }
  return rawField(kernel, L, helpers, "meta");
}

/**
 * Pushes `error` onto `L` as an error value of the VM (a table with kind, message and fields, the
 * VM's error metatable, recorded as the VM's own, as a quota refusal when marked, with its run
 * error kind and cause when it has them) and returns
 * true; returns false, pushing nothing, when the VM has no error values. With `account`, the
 * memory limit is lifted while the value is built.
 */
export function pushErrorValue(
  ctx: ErrorValueContext,
  L: LuaState,
  error: EngineError,
  account?: MemoryAccount,
): boolean {
  const { kernel } = ctx;
  const { x } = kernel;
  const top = x.lua_gettop(L);
  if (x.lua_checkstack(L, 8) === 0) return false;
  const limit = account?.limit ?? 0;
  if (account !== undefined) account.limit = MAX_LIMIT_BYTES;
  try {
    if (!pushHelpers(kernel, L)) return false; // top+1: errors
    const helpers = top + 1;
    if (!pushMeta(kernel, L, helpers)) {
      x.lua_settop(L, top);
      return false;
    }
    const meta = top + 2;
    const fieldNames = Object.keys(error.fields).filter(
      (name) => name !== "kind" && name !== "message",
    );
    x.lua_createtable(L, 0, 2 + fieldNames.length); // top+3: the value
    const value = top + 3;
    setField(kernel, L, value, "kind", error.kind);
    setField(kernel, L, value, "message", error.message);
    for (const name of fieldNames) setField(kernel, L, value, name, error.fields[name] ?? "");
    x.lua_pushvalue(L, meta);
    x.lua_setmetatable(L, value);
    markKind(kernel, L, helpers, value, error.kind);
    if (error.quota) mark(kernel, L, helpers, "quota_marks", value);
    if (error.runErrorKind !== undefined) {
      markText(kernel, L, helpers, "run_kinds", value, error.runErrorKind);
    }
    if (error.causeText !== undefined) {
      markText(kernel, L, helpers, "causes", value, error.causeText);
    }
    x.lua_rotate(L, helpers, 1); // the value moves down to top+1
    x.lua_settop(L, top + 1);
    return true;
  } catch (failure) {
    if (kernel.isUnwinding(failure)) throw failure;
    x.lua_settop(L, top);
    return false;
  } finally {
    if (account !== undefined) account.limit = limit;
  }
}

/**
 * Pushes `error` as an error value where the VM has them, else as a plain table with the same
 * kind, message and fields (a VM without installErrors).
 */
export function pushEngineErrorValue(
  ctx: ErrorValueContext,
  L: LuaState,
  error: EngineError,
): void {
  if (pushErrorValue(ctx, L, error)) return;
  const { kernel } = ctx;
  const names = Object.keys(error.fields).filter((name) => name !== "kind" && name !== "message");
  kernel.x.lua_createtable(L, 0, 2 + names.length);
  const value = kernel.x.lua_gettop(L);
  setField(kernel, L, value, "kind", error.kind);
  setField(kernel, L, value, "message", error.message);
  for (const name of names) setField(kernel, L, value, name, error.fields[name] ?? "");
}

/** `t[key] = value` (a string, or a number: an integer when safe) on the table at `table`. */
function setField(
  kernel: LuaKernel,
  L: LuaState,
  table: number,
  key: string,
  value: string | number,
): void {
  const { x } = kernel;
  kernel.pushText(L, key);
  if (typeof value === "string") kernel.pushText(L, value);
  else if (Number.isSafeInteger(value) && !Object.is(value, -0))
    x.lua_pushinteger(L, BigInt(value));
  else x.lua_pushnumber(L, value);
  x.lua_rawset(L, table);
}

/** `helpers.values[stack[value]] = kind`: the value is the VM's own, made with `kind`. */
function markKind(
  kernel: LuaKernel,
  L: LuaState,
  helpers: number,
  value: number,
  kind: string,
): void {
  const { x } = kernel;
  if (!rawField(kernel, L, helpers, "values")) return;
  x.lua_pushvalue(L, value);
  kernel.pushText(L, kind);
  x.lua_rawset(L, -3);
  x.lua_settop(L, -2);
}

/** The kind `helpers.values` recorded for `stack[value]`, or undefined when it is not the VM's. */
function recordedKind(
  kernel: LuaKernel,
  L: LuaState,
  helpers: number,
  value: number,
): string | undefined {
  const { x } = kernel;
  if (!rawField(kernel, L, helpers, "values")) return undefined;
  x.lua_pushvalue(L, value);
  const kind = x.lua_rawget(L, -2) === LuaTypeTag.STRING ? kernel.readText(L, -1) : undefined;
  x.lua_settop(L, -3);
  return kind;
}

/** `helpers[setName][stack[value]] = true`. */
function mark(
  kernel: LuaKernel,
  L: LuaState,
  helpers: number,
  setName: string,
  value: number,
): void {
  const { x } = kernel;
  if (!rawField(kernel, L, helpers, setName)) return;
  x.lua_pushvalue(L, value);
  x.lua_pushboolean(L, 1);
  x.lua_rawset(L, -3);
  x.lua_settop(L, -2);
}

/** `helpers[setName][stack[value]] = text`. */
function markText(
  kernel: LuaKernel,
  L: LuaState,
  helpers: number,
  setName: string,
  value: number,
  text: string,
): void {
  const { x } = kernel;
  if (!rawField(kernel, L, helpers, setName)) return;
  x.lua_pushvalue(L, value);
  kernel.pushText(L, text);
  x.lua_rawset(L, -3);
  x.lua_settop(L, -2);
}

/** `helpers[setName][stack[value]]` when it is a string, else undefined. */
function markedText(
  kernel: LuaKernel,
  L: LuaState,
  helpers: number,
  setName: string,
  value: number,
): string | undefined {
  const { x } = kernel;
  if (!rawField(kernel, L, helpers, setName)) return undefined;
  x.lua_pushvalue(L, value);
  const text = x.lua_rawget(L, -2) === LuaTypeTag.STRING ? kernel.readText(L, -1) : undefined;
  x.lua_settop(L, -3);
  return text;
}

/**
 * When the value at the top of `L` (a failed block's raised value, read into JavaScript as
 * `raised`) is one of the VM's error values, the EngineError it carries: its kind, message,
 * string and number fields, its quota mark, run error kind and cause. Otherwise undefined. Call
 * inside a host op.
 */
export function errorValueAtTop(
  ctx: ErrorValueContext,
  L: LuaState,
  raised: LuaValue,
): EngineError | undefined {
  const { kernel } = ctx;
  const { x } = kernel;
  if (x.lua_type(L, -1) !== LuaTypeTag.TABLE) return undefined;
  if (x.lua_checkstack(L, 6) === 0) return undefined;
  const value = x.lua_gettop(L);
  try {
    if (!pushHelpers(kernel, L)) return undefined;
    const helpers = value + 1;
    const kind = recordedKind(kernel, L, helpers, value);
    if (kind === undefined || !isErrorKind(kind)) return undefined;
    const runErrorKind = markedText(kernel, L, helpers, "run_kinds", value);
    const causeText = markedText(kernel, L, helpers, "causes", value);
    return engineErrorOf(kind, raised, {
      quota: isMarked(kernel, L, helpers, "quota_marks", value),
      ...(runErrorKind === undefined ? {} : { runErrorKind }),
      ...(causeText === undefined ? {} : { causeText }),
    });
  } finally {
    x.lua_settop(L, value);
  }
}

/** Whether `helpers[setName][stack[value]]` is true (false before the helpers are loaded). */
function isMarked(
  kernel: LuaKernel,
  L: LuaState,
  helpers: number,
  setName: string,
  value: number,
): boolean {
  const { x } = kernel;
  if (!rawField(kernel, L, helpers, setName)) return false;
  x.lua_pushvalue(L, value);
  const marked = x.lua_rawget(L, -2) === LuaTypeTag.BOOLEAN && x.lua_toboolean(L, -1) !== 0;
  x.lua_settop(L, -3);
  return marked;
}

/**
 * The EngineError an error value read into JavaScript carries. Its fields are plain and prompt
 * code can change them before raising the value again, so the kind is the one the VM recorded
 * when it made the value (`kind`), never the field: a prompt cannot turn a caught error into a
 * cancellation or any other kind (docs/design/errors.md). A message that is not a string reads
 * as the kind; the other string and number fields are kept as they are.
 */
function engineErrorOf(
  kind: ErrorKind,
  raised: LuaValue,
  options: EngineErrorOptions,
): EngineError {
  const record = isRecord(raised) ? raised : {};
  const message = typeof record.message === "string" ? record.message : kind;
  const fields: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(record)) {
    if (name === "kind" || name === "message") continue;
    if (typeof value === "string" || typeof value === "number") fields[name] = value;
  }
  return new EngineError(kind, message, fields as ErrorFields, options);
}

function isRecord(value: LuaValue): value is Readonly<Record<string, LuaValue>> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    value.constructor === Object
  );
}
