import { EngineError } from "../engine-error";
import type { LuaState } from "../module";
import { LUA_REGISTRYINDEX, LuaTypeTag } from "../raw-api";
import { pushEngineErrorValue } from "./error-values";
import type { HostFunctionTable } from "./host-functions";
import type { LuaKernel } from "./kernel";
import { LuaOpaque, type LuaRecord, type LuaTypeName, type LuaValue } from "./values";

/** Deepest nesting of arrays/objects (or tables) that push and read accept. */
export const MAX_MARSHAL_DEPTH = 200;

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Lua type names by type tag (`lua_type` result + 1). */
const TYPE_NAMES: readonly LuaTypeName[] = [
  "nil", // LUA_TNONE reads as nil
  "nil",
  "boolean",
  "userdata", // light userdata
  "number",
  "string",
  "table",
  "function",
  "userdata",
  "thread",
];

/** The Lua type name of the value at `idx` (`none` reads as `nil`). */
export function typeNameOf(kernel: LuaKernel, L: LuaState, idx: number): LuaTypeName {
  return TYPE_NAMES[kernel.x.lua_type(L, idx) + 1] ?? "nil";
}

/** One shared read-only marker per opaque type. */
const OPAQUE: Readonly<Record<LuaTypeName, LuaOpaque>> = {
  nil: new LuaOpaque("nil"),
  boolean: new LuaOpaque("boolean"),
  number: new LuaOpaque("number"),
  string: new LuaOpaque("string"),
  table: new LuaOpaque("table"),
  function: new LuaOpaque("function"),
  userdata: new LuaOpaque("userdata"),
  thread: new LuaOpaque("thread"),
};
for (const marker of Object.values(OPAQUE)) Object.freeze(marker);

/** Where pushed JS functions are registered, and the dispatcher their closures call. */
export interface PushContext {
  readonly kernel: LuaKernel;
  readonly functions: HostFunctionTable;
}

/**
 * Pushes `value` onto `L` (see LuaValue for the mapping). A JS function becomes a host function
 * named `name` (a dotted path for functions inside objects). Throws a TypeError or RangeError for
 * values that cannot cross, leaving whatever it already pushed on the stack (callers restore the
 * top). May raise a Lua memory error (only inside protected code or with the limit lifted).
 */
export function pushValue(ctx: PushContext, L: LuaState, value: LuaValue, name: string): void {
  pushNested(ctx, L, value, name, 0, undefined);
}

function pushNested(
  ctx: PushContext,
  L: LuaState,
  value: LuaValue,
  name: string,
  depth: number,
  seen: Set<object> | undefined,
): void {
  const { x } = ctx.kernel;
  switch (typeof value) {
    case "undefined":
      x.lua_pushnil(L);
      return;
    case "boolean":
      x.lua_pushboolean(L, value ? 1 : 0);
      return;
    case "number":
      if (Number.isSafeInteger(value) && !Object.is(value, -0)) x.lua_pushinteger(L, BigInt(value));
      else x.lua_pushnumber(L, value);
      return;
    case "bigint":
      if (value < MIN_INT64 || value > MAX_INT64) {
        throw new RangeError(`${value} is outside Lua's 64-bit integer range`);
      }
      x.lua_pushinteger(L, value);
      return;
    case "string":
      ctx.kernel.pushText(L, value);
      return;
    case "function": {
      const index = ctx.functions.add({ kind: "host", name, fn: value });
      pushHostClosure(ctx.kernel, L, index);
      return;
    }
    default:
      break;
  }
  if (value === null) {
    x.lua_pushnil(L);
    return;
  }
  if (value instanceof Uint8Array) {
    ctx.kernel.pushBytes(L, value);
    return;
  }
  if (value instanceof LuaOpaque) {
    throw new TypeError(`a Lua ${value.type} read back from Lua cannot be pushed again`);
  }
  if (value instanceof EngineError) {
    pushEngineErrorValue(ctx, L, value);
    return;
  }
  if (depth >= MAX_MARSHAL_DEPTH) {
    throw new RangeError(`cannot push a value nested more than ${MAX_MARSHAL_DEPTH} levels deep`);
  }
  const visiting = seen ?? new Set<object>();
  if (visiting.has(value)) throw new TypeError("cannot push a value that contains itself");
  if (x.lua_checkstack(L, 4) === 0) throw new RangeError("the Lua stack cannot grow");
  visiting.add(value);
  if (Array.isArray(value)) {
    const items: readonly LuaValue[] = value;
    x.lua_createtable(L, items.length, 0);
    for (let i = 0; i < items.length; i++) {
      pushNested(ctx, L, items[i], `${name}[${i + 1}]`, depth + 1, visiting);
      x.lua_rawseti(L, -2, BigInt(i + 1));
    }
  } else {
    const record = value as LuaRecord;
    const keys = Object.keys(record);
    x.lua_createtable(L, 0, keys.length);
    for (const key of keys) {
      ctx.kernel.pushText(L, key);
      pushNested(ctx, L, record[key], name === "" ? key : `${name}.${key}`, depth + 1, visiting);
      x.lua_rawset(L, -3);
    }
  }
  visiting.delete(value);
}

/** Pushes the dispatcher closure for host-function entry `index`. */
export function pushHostClosure(kernel: LuaKernel, L: LuaState, index: number): void {
  kernel.x.lua_pushlightuserdata(L, index);
  kernel.x.lua_pushcclosure(L, kernel.dispatcher, 1);
}

/** How strings are read: as text (default) or as bytes. */
export interface ReadOptions {
  readonly bytes?: boolean;
}

/**
 * Reads the value at `idx` of `L` into JavaScript (see LuaValue for the mapping). Raw access
 * only: no metamethod runs. Throws a TypeError for a table that contains itself or is nested
 * more than MAX_MARSHAL_DEPTH levels deep. Converting a float key to text allocates, so call it
 * inside protected code or with the memory limit lifted.
 */
export function readValue(
  kernel: LuaKernel,
  L: LuaState,
  idx: number,
  options: ReadOptions = {},
): LuaValue {
  return readNested(kernel, L, absIndex(kernel, L, idx), options, 0, undefined);
}

/** `lua_absindex` for ordinary stack indices. */
export function absIndex(kernel: LuaKernel, L: LuaState, idx: number): number {
  return idx < 0 && idx > LUA_REGISTRYINDEX ? kernel.x.lua_gettop(L) + idx + 1 : idx;
}

function readNested(
  kernel: LuaKernel,
  L: LuaState,
  idx: number,
  options: ReadOptions,
  depth: number,
  seen: Set<number> | undefined,
): LuaValue {
  const { x } = kernel;
  switch (x.lua_type(L, idx)) {
    case LuaTypeTag.NONE:
    case LuaTypeTag.NIL:
      return null;
    case LuaTypeTag.BOOLEAN:
      return x.lua_toboolean(L, idx) !== 0;
    case LuaTypeTag.NUMBER:
      return readNumber(kernel, L, idx);
    case LuaTypeTag.STRING:
      return options.bytes === true ? kernel.readBytes(L, idx) : kernel.readText(L, idx);
    case LuaTypeTag.TABLE:
      return readTable(kernel, L, idx, options, depth, seen);
    case LuaTypeTag.FUNCTION:
      return OPAQUE.function;
    case LuaTypeTag.THREAD:
      return OPAQUE.thread;
    default:
      return OPAQUE.userdata;
  }
}

/** An integer as a number when safe, otherwise a bigint; a float as a number. */
export function readNumber(kernel: LuaKernel, L: LuaState, idx: number): number | bigint {
  const { x } = kernel;
  if (x.lua_isinteger(L, idx) === 0) return x.lua_tonumberx(L, idx, 0);
  return toSafeNumber(x.lua_tointegerx(L, idx, 0));
}

/** A Lua integer as a number when it is a safe integer, otherwise as is. */
export function toSafeNumber(value: bigint): number | bigint {
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

function readTable(
  kernel: LuaKernel,
  L: LuaState,
  idx: number,
  options: ReadOptions,
  depth: number,
  seen: Set<number> | undefined,
): LuaValue {
  const { x } = kernel;
  if (depth >= MAX_MARSHAL_DEPTH) {
    throw new TypeError(
      `cannot read a Lua table nested more than ${MAX_MARSHAL_DEPTH} levels deep`,
    );
  }
  const identity = x.lua_topointer(L, idx);
  const visiting = seen ?? new Set<number>();
  if (visiting.has(identity)) {
    throw new TypeError("cannot read a Lua table that contains itself");
  }
  if (x.lua_checkstack(L, 4) === 0) throw new RangeError("the Lua stack cannot grow");
  visiting.add(identity);
  const keys: (string | number | bigint)[] = [];
  const values: LuaValue[] = [];
  let allPositiveIntegers = true;
  let maxIndex = 0;
  x.lua_pushnil(L);
  while (x.lua_next(L, idx) !== 0) {
    const key = readKey(kernel, L);
    if (typeof key === "number" && key >= 1) {
      if (key > maxIndex) maxIndex = key;
    } else {
      allPositiveIntegers = false;
    }
    keys.push(key);
    values.push(readNested(kernel, L, x.lua_gettop(L), options, depth + 1, visiting));
    x.lua_settop(L, -2);
  }
  visiting.delete(identity);
  if (allPositiveIntegers && keys.length > 0 && maxIndex === keys.length) {
    const array: LuaValue[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) array[(keys[i] as number) - 1] = values[i];
    return array;
  }
  const record: Record<string, LuaValue> = {};
  for (let i = 0; i < keys.length; i++) record[String(keys[i])] = values[i];
  return record;
}

/**
 * The key at -2 during lua_next: a string, an integer (number or bigint), a float's Lua text, a
 * boolean's text, or `(table key)` and the like for other types.
 */
function readKey(kernel: LuaKernel, L: LuaState): string | number | bigint {
  const { x } = kernel;
  switch (x.lua_type(L, -2)) {
    case LuaTypeTag.STRING:
      return kernel.readText(L, -2);
    case LuaTypeTag.NUMBER: {
      if (x.lua_isinteger(L, -2) !== 0) return readNumber(kernel, L, -2);
      // A float key reads as Lua writes it ("%.14g"); convert a copy, never the key itself.
      x.lua_pushvalue(L, -2);
      const text = kernel.readText(L, -1);
      x.lua_settop(L, -2);
      return text;
    }
    case LuaTypeTag.BOOLEAN:
      return x.lua_toboolean(L, -2) !== 0 ? "true" : "false";
    default:
      return `(${typeNameOf(kernel, L, -2)} key)`;
  }
}
