import { EngineError } from "../engine-error";
import { type JsonEncodeLimits, jsonEncodeLimits } from "../json/limits";
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

/** The read budget's limits: the value and string-byte counts of json's size budget. */
export type ReadLimits = Pick<JsonEncodeLimits, "maxValues" | "maxStringBytes">;

/** The read limits for a Lua memory limit: limit / 8 values, the limit in string bytes. */
export function readLimits(luaMemoryBytes?: number): ReadLimits {
  const { maxValues, maxStringBytes } = jsonEncodeLimits(luaMemoryBytes);
  return { maxValues, maxStringBytes };
}

/** The text of a read refused by its size budget (see ReadTooLargeError). */
export const READ_TOO_LARGE_MESSAGE = "value is too large to read";

/**
 * A Lua value whose read into JavaScript would spend more than its budget: more values (a table
 * once for every place it appears) or more string bytes than the VM's memory limit allows.
 */
export class ReadTooLargeError extends RangeError {
  constructor() {
    super(READ_TOO_LARGE_MESSAGE);
    this.name = "ReadTooLargeError";
  }
}

/**
 * What reads spend ("Size and nesting limits" of the lua chapter, as json.encode and var
 * spend it): one value per value, every place a table appears counting, and the bytes of every
 * string value and string key. One budget may be shared by several reads (a block's results).
 */
export class ReadBudget {
  private readonly limits: ReadLimits;
  values = 0;
  stringBytes = 0;

  constructor(limits: ReadLimits = readLimits()) {
    this.limits = limits;
  }

  /** Spends `values` values and `bytes` string bytes, or throws ReadTooLargeError. */
  spend(values: number, bytes: number): void {
    this.values += values;
    this.stringBytes += bytes;
    if (this.values > this.limits.maxValues || this.stringBytes > this.limits.maxStringBytes) {
      throw new ReadTooLargeError();
    }
  }
}

/** How strings are read (as text by default, or as bytes) and the budget the read spends. */
export interface ReadOptions {
  readonly bytes?: boolean;
  /** The budget to spend; a fresh one for the default 64 MiB memory limit when absent. */
  readonly budget?: ReadBudget;
}

/** A table read completely: its JS value and what reading it cost, for its next appearance. */
interface ReadTable {
  readonly value: LuaValue;
  readonly values: number;
  readonly bytes: number;
  /** Levels of tables below it (0 for a table of scalars). */
  readonly height: number;
}

/** The state of one read walk. */
interface ReadWalk {
  readonly kernel: LuaKernel;
  readonly L: LuaState;
  readonly options: ReadOptions;
  readonly budget: ReadBudget;
  /** Tables on the current path (cycle detection). */
  readonly visiting: Set<number>;
  /** Tables read completely, by identity. */
  readonly done: Map<number, ReadTable>;
  /** Cost of the table being read: values and string bytes so far, height below it. */
  values: number;
  bytes: number;
  height: number;
}

/**
 * Reads the value at `idx` of `L` into JavaScript (see LuaValue for the mapping). Raw access
 * only: no metamethod runs. Throws a TypeError for a table that contains itself or is nested
 * more than MAX_MARSHAL_DEPTH levels deep, and a ReadTooLargeError when the value spends more
 * than its budget. A table that appears in several places is read once and its JS value is
 * shared, while the budget is spent at every place, so a value shared at every level of a deep
 * nest is refused after reading each table once. Converting a float key to text allocates, so
 * call it inside protected code or with the memory limit lifted.
 */
export function readValue(
  kernel: LuaKernel,
  L: LuaState,
  idx: number,
  options: ReadOptions = {},
): LuaValue {
  const walk: ReadWalk = {
    kernel,
    L,
    options,
    budget: options.budget ?? new ReadBudget(),
    visiting: new Set(),
    done: new Map(),
    values: 0,
    bytes: 0,
    height: 0,
  };
  const top = kernel.x.lua_gettop(L);
  try {
    return readNested(walk, absIndex(kernel, L, idx), 0);
  } catch (error) {
    if (!kernel.isUnwinding(error)) kernel.x.lua_settop(L, top); // a refused walk leaves no keys
    throw error;
  }
}

/** `lua_absindex` for ordinary stack indices. */
export function absIndex(kernel: LuaKernel, L: LuaState, idx: number): number {
  return idx < 0 && idx > LUA_REGISTRYINDEX ? kernel.x.lua_gettop(L) + idx + 1 : idx;
}

function readNested(walk: ReadWalk, idx: number, depth: number): LuaValue {
  const { kernel, L } = walk;
  const { x } = kernel;
  const type = x.lua_type(L, idx);
  if (type === LuaTypeTag.TABLE) return readTable(walk, idx, depth);
  spend(walk, 1, 0);
  switch (type) {
    case LuaTypeTag.NONE:
    case LuaTypeTag.NIL:
      return null;
    case LuaTypeTag.BOOLEAN:
      return x.lua_toboolean(L, idx) !== 0;
    case LuaTypeTag.NUMBER:
      return readNumber(kernel, L, idx);
    case LuaTypeTag.STRING: {
      // Check the length before copying the string out of the heap.
      spend(walk, 0, Number(x.lua_rawlen(L, idx)));
      return walk.options.bytes === true ? kernel.readBytes(L, idx) : kernel.readText(L, idx);
    }
    case LuaTypeTag.FUNCTION:
      return OPAQUE.function;
    case LuaTypeTag.THREAD:
      return OPAQUE.thread;
    default:
      return OPAQUE.userdata;
  }
}

/** Spends from the walk's budget and adds to the cost of the table being read. */
function spend(walk: ReadWalk, values: number, bytes: number): void {
  walk.budget.spend(values, bytes);
  walk.values += values;
  walk.bytes += bytes;
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

function tooDeep(): TypeError {
  return new TypeError(`cannot read a Lua table nested more than ${MAX_MARSHAL_DEPTH} levels deep`);
}

function readTable(walk: ReadWalk, idx: number, depth: number): LuaValue {
  const { kernel, L } = walk;
  const { x } = kernel;
  if (depth >= MAX_MARSHAL_DEPTH) throw tooDeep();
  const identity = x.lua_topointer(L, idx);
  const known = walk.done.get(identity);
  if (known !== undefined) {
    // Read before: spend what it cost at this place too, and share its JS value.
    if (depth + known.height >= MAX_MARSHAL_DEPTH) throw tooDeep();
    spend(walk, known.values, known.bytes);
    walk.height = Math.max(walk.height, known.height + 1);
    return known.value;
  }
  if (walk.visiting.has(identity)) {
    throw new TypeError("cannot read a Lua table that contains itself");
  }
  if (x.lua_checkstack(L, 4) === 0) throw new RangeError("the Lua stack cannot grow");
  const outer = { values: walk.values, bytes: walk.bytes, height: walk.height };
  walk.values = 0;
  walk.bytes = 0;
  walk.height = 0;
  spend(walk, 1, 0);
  walk.visiting.add(identity);
  const keys: (string | number | bigint)[] = [];
  const values: LuaValue[] = [];
  let allPositiveIntegers = true;
  let maxIndex = 0;
  x.lua_pushnil(L);
  while (x.lua_next(L, idx) !== 0) {
    if (x.lua_type(L, -2) === LuaTypeTag.STRING) spend(walk, 0, Number(x.lua_rawlen(L, -2)));
    const key = readKey(kernel, L);
    if (typeof key === "number" && key >= 1) {
      if (key > maxIndex) maxIndex = key;
    } else {
      allPositiveIntegers = false;
    }
    keys.push(key);
    values.push(readNested(walk, x.lua_gettop(L), depth + 1));
    x.lua_settop(L, -2);
  }
  walk.visiting.delete(identity);
  let value: LuaValue;
  if (allPositiveIntegers && keys.length > 0 && maxIndex === keys.length) {
    const array: LuaValue[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) array[(keys[i] as number) - 1] = values[i];
    value = array;
  } else {
    const record: Record<string, LuaValue> = {};
    for (let i = 0; i < keys.length; i++) record[String(keys[i])] = values[i];
    value = record;
  }
  const read: ReadTable = { value, values: walk.values, bytes: walk.bytes, height: walk.height };
  walk.done.set(identity, read);
  walk.values = outer.values + read.values;
  walk.bytes = outer.bytes + read.bytes;
  walk.height = Math.max(outer.height, read.height + 1);
  return value;
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
