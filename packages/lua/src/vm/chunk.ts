import type { LuaState } from "../module";
import { LuaStatus, LuaTypeTag, toUtf8 } from "../raw-api";
import { boundedToString } from "./bounded-tostring";
import { CANCELLED_MESSAGE } from "./cancel";
import {
  pushValue,
  ReadBudget,
  ReadTooLargeError,
  readLimits,
  readValue,
  typeNameOf,
} from "./marshal";
import type { BlockChunk, BlockFailure, BlockFailureReason, BlockOutcome } from "./outcome";
import { LuaOpaque, type LuaValue } from "./values";
import type { VmState } from "./vm-state";

const utf8Encoder = new TextEncoder();

/**
 * `luaL_loadbufferx` of `chunk` onto thread `L`: bytecode in mode "b", source in mode "t" (so
 * source can never smuggle in bytecode). Loading is protected inside Lua and runs under the
 * VM's memory limit. Pushes the function, or the error message; returns the status.
 */
export function loadChunk(state: VmState, L: LuaState, chunk: BlockChunk): number {
  if (chunk.chunkName.includes("\0")) throw new TypeError("a Lua chunk name cannot contain NUL");
  const { kernel } = state;
  const isBytecode = "bytecode" in chunk;
  const body = isBytecode ? chunk.bytecode : toUtf8(chunk.source);
  const name = utf8Encoder.encode(chunk.chunkName);
  const block = kernel.malloc(body.length + name.length + 1);
  try {
    const heap = kernel.heap.u8();
    heap.set(body, block);
    heap.set(name, block + body.length);
    heap[block + body.length + name.length] = 0;
    const mode = kernel.cString(isBytecode ? "b" : "t");
    const status = kernel.x.luaL_loadbufferx(L, block, body.length, block + body.length, mode);
    kernel.clearUnwinding(); // a syntax error unwinds inside the protected parser
    return status;
  } finally {
    kernel.x.free(block);
  }
}

/** Pushes a chunk's arguments onto `L` (call inside a host op); returns their count. */
export function pushArgs(
  state: VmState,
  L: LuaState,
  args: readonly LuaValue[] | undefined,
): number {
  if (args === undefined || args.length === 0) return 0;
  if (state.kernel.x.lua_checkstack(L, args.length) === 0) {
    throw new RangeError("too many arguments for a Lua chunk");
  }
  for (const arg of args) pushValue(state, L, arg, "argument");
  return args.length;
}

/** The failure reason for a Lua status code other than OK and YIELD. */
export function reasonOf(status: number): BlockFailureReason {
  if (status === LuaStatus.ERRMEM) return "memory";
  if (status === LuaStatus.ERRSYNTAX) return "load";
  return "error";
}

/** A failure from the error value on top of `L` (call inside a host op). */
export function failureAt(
  state: VmState,
  L: LuaState,
  reason: BlockFailureReason,
  traceback: string,
): BlockFailure {
  return {
    ok: false,
    reason,
    error: safeRead(state, L, -1),
    message: errorText(state, L, -1),
    traceback,
  };
}

/** The value at `idx`, or a LuaOpaque when it cannot be read (a table containing itself). */
export function safeRead(state: VmState, L: LuaState, idx: number): LuaValue {
  try {
    return readValue(state.kernel, L, idx, { budget: readBudgetOf(state) });
  } catch (error) {
    if (state.kernel.isUnwinding(error)) throw error;
    return new LuaOpaque(typeNameOf(state.kernel, L, idx));
  }
}

/** A fresh read budget for `state`'s memory limit. */
export function readBudgetOf(state: VmState): ReadBudget {
  return new ReadBudget(readLimits(state.limitBytes));
}

/**
 * The error value at `idx` as text, like the standalone interpreter: a string as is, a number as
 * Lua writes it (converted on a copy), a table or userdata whose metatable's __tostring gives a
 * string as that string (a bounded call, see boundedToString), anything else as
 * `(error object is a {type} value)`.
 */
export function errorText(state: VmState, L: LuaState, idx: number): string {
  const { kernel } = state;
  const { x } = kernel;
  const type = x.lua_type(L, idx);
  if (type === LuaTypeTag.STRING) return kernel.readText(L, idx);
  if (type === LuaTypeTag.NUMBER) {
    x.lua_pushvalue(L, idx);
    const text = kernel.readText(L, -1);
    x.lua_settop(L, -2);
    return text;
  }
  return (
    boundedToString(state, L, idx) ?? `(error object is a ${typeNameOf(kernel, L, idx)} value)`
  );
}

/** `luaL_traceback` of thread `co` from its level 0, as text (call inside a host op). */
export function tracebackOf(state: VmState, co: LuaState): string {
  const { kernel, L } = state;
  kernel.x.luaL_traceback(L, co, 0, 0);
  const text = kernel.readText(L, -1);
  kernel.x.lua_settop(L, -2);
  return text;
}

/**
 * The values at stack slots first..last of `L`, read into JavaScript (inside a host op). The
 * values share one read budget; a value that runs it out (and every value after it) reads as a
 * LuaOpaque of its type instead, as a function does, so a returned table shared at every level
 * of a deep nest is refused in the time it takes to read each table once and the Engine's scalar
 * rule refuses it like any table (docs/design/outcomes.md).
 */
export function readValuesAt(
  state: VmState,
  L: LuaState,
  first: number,
  last: number,
): BlockOutcome {
  const values: LuaValue[] = [];
  const floats: number[] = [];
  const { kernel } = state;
  const { x } = kernel;
  const budget = readBudgetOf(state);
  let exhausted = false;
  try {
    for (let i = first; i <= last; i++) {
      if (x.lua_type(L, i) === LuaTypeTag.NUMBER && x.lua_isinteger(L, i) === 0) {
        floats.push(i - first);
      }
      if (!exhausted) {
        try {
          values.push(readValue(kernel, L, i, { budget }));
          continue;
        } catch (error) {
          if (!(error instanceof ReadTooLargeError)) throw error;
          exhausted = true;
        }
      }
      values.push(new LuaOpaque(typeNameOf(kernel, L, i)));
    }
  } catch (error) {
    if (kernel.isUnwinding(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: "error", error: message, message, traceback: "" };
  }
  return floats.length === 0 ? { ok: true, values } : { ok: true, values, floats };
}

/** The outcome of a cancelled run. */
export function cancelledFailure(traceback: string): BlockFailure {
  return {
    ok: false,
    reason: "cancelled",
    error: CANCELLED_MESSAGE,
    message: CANCELLED_MESSAGE,
    traceback,
  };
}
