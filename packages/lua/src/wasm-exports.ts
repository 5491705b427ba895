import type { LuaState, Ptr } from "./module";
import { createSharedMemory, importSharedMemory } from "./shared-memory";
import {
  type WasmApi,
  type WasmInstance,
  type WasmMemory,
  type WasmTable,
  wasmApi,
} from "./wasm-api";

/** A function pointer: an index into the wasm indirect function table. */
export type FnPtr = number;

/**
 * The raw exports of wasmoon's wasm instance itself: the C functions with no JavaScript in
 * between, plus the linear memory and the function table.
 *
 * wasmoon's emscripten module only exposes each C function through an assertion wrapper
 * (`Module._lua_*`, which checks that the runtime is up and forwards `arguments` with `apply`)
 * and keeps the instance, the memory object and the table private. The VM layer needs all three
 * (the memory and the realloc/free exports to build its limit allocator, `stackSave` /
 * `stackRestore` to recover from a panic), so {@link captureLuaInstance} catches the instance as
 * it is created. `lua_Integer` arguments and results are 64-bit and cross as `bigint`
 * (the build uses WASM_BIGINT); `size_t`, `int` and pointers cross as `number`.
 */
export interface LuaExports {
  readonly memory: WasmMemory;
  readonly __indirect_function_table: WasmTable;
  malloc(size: number): Ptr;
  free(ptr: Ptr): void;
  realloc(ptr: Ptr, size: number): Ptr;
  stackSave(): Ptr;
  stackRestore(sp: Ptr): void;

  lua_newstate(alloc: FnPtr, ud: Ptr): LuaState;
  lua_close(L: LuaState): void;
  lua_newthread(L: LuaState): LuaState;
  lua_atpanic(L: LuaState, panicf: FnPtr): FnPtr;
  lua_gettop(L: LuaState): number;
  lua_settop(L: LuaState, idx: number): void;
  lua_pushvalue(L: LuaState, idx: number): void;
  lua_rotate(L: LuaState, idx: number, n: number): void;
  lua_checkstack(L: LuaState, n: number): number;
  lua_xmove(from: LuaState, to: LuaState, n: number): void;

  lua_type(L: LuaState, idx: number): number;
  lua_isinteger(L: LuaState, idx: number): number;
  lua_tonumberx(L: LuaState, idx: number, isnum: Ptr): number;
  lua_tointegerx(L: LuaState, idx: number, isnum: Ptr): bigint;
  lua_toboolean(L: LuaState, idx: number): number;
  lua_tolstring(L: LuaState, idx: number, len: Ptr): Ptr;
  lua_touserdata(L: LuaState, idx: number): Ptr;
  lua_topointer(L: LuaState, idx: number): Ptr;

  lua_pushnil(L: LuaState): void;
  lua_pushnumber(L: LuaState, n: number): void;
  lua_pushinteger(L: LuaState, n: bigint): void;
  lua_pushlstring(L: LuaState, s: Ptr, len: number): Ptr;
  lua_pushboolean(L: LuaState, b: number): void;
  lua_pushlightuserdata(L: LuaState, p: Ptr): void;
  lua_pushcclosure(L: LuaState, fn: FnPtr, n: number): void;

  lua_getfield(L: LuaState, idx: number, k: Ptr): number;
  lua_rawget(L: LuaState, idx: number): number;
  /** Pushes the real metatable of the value at `idx` and returns 1, or pushes nothing and returns 0. */
  lua_getmetatable(L: LuaState, idx: number): number;
  /** 1 when the values at `a` and `b` are primitively equal (no metamethod), else 0. */
  lua_rawequal(L: LuaState, a: number, b: number): number;
  /** The raw length of the table or string at `idx` (`#` without `__len`). */
  lua_rawlen(L: LuaState, idx: number): bigint;
  /** Raises `bad argument #arg to '{name}' (value expected)` when argument `arg` is absent. */
  luaL_checkany(L: LuaState, arg: number): void;
  lua_rawgeti(L: LuaState, idx: number, n: bigint): number;
  lua_createtable(L: LuaState, narr: number, nrec: number): void;
  lua_rawset(L: LuaState, idx: number): void;
  lua_rawseti(L: LuaState, idx: number, n: bigint): void;
  lua_next(L: LuaState, idx: number): number;
  lua_newuserdatauv(L: LuaState, size: number, nuvalue: number): Ptr;
  lua_setmetatable(L: LuaState, objindex: number): number;
  lua_concat(L: LuaState, n: number): void;

  lua_callk(L: LuaState, nargs: number, nresults: number, ctx: number, k: FnPtr): void;
  lua_pcallk(
    L: LuaState,
    nargs: number,
    nresults: number,
    errfunc: number,
    ctx: number,
    k: FnPtr,
  ): number;
  lua_yieldk(L: LuaState, nresults: number, ctx: number, k: FnPtr): number;
  lua_resume(L: LuaState, from: LuaState, narg: number, nres: Ptr): number;
  lua_isyieldable(L: LuaState): number;
  lua_error(L: LuaState): number;
  lua_sethook(L: LuaState, f: FnPtr, mask: number, count: number): void;

  luaL_loadbufferx(L: LuaState, buff: Ptr, size: number, name: Ptr, mode: Ptr): number;
  luaL_traceback(L: LuaState, L1: LuaState, msg: Ptr, level: number): void;
  luaL_ref(L: LuaState, t: number): number;
  luaL_unref(L: LuaState, t: number, ref: number): void;
  luaL_checklstring(L: LuaState, arg: number, len: Ptr): Ptr;
  luaL_checkinteger(L: LuaState, arg: number): bigint;
  luaL_optlstring(L: LuaState, arg: number, def: Ptr, len: Ptr): Ptr;
  luaL_checktype(L: LuaState, arg: number, t: number): void;
  luaL_typeerror(L: LuaState, arg: number, tname: Ptr): number;
  luaL_getmetafield(L: LuaState, obj: number, e: Ptr): number;
  luaL_where(L: LuaState, level: number): void;

  luaopen_base(L: LuaState): number;
  luaopen_string(L: LuaState): number;
  luaopen_table(L: LuaState): number;
  luaopen_math(L: LuaState): number;
  luaopen_coroutine(L: LuaState): number;
}

/** The function exports {@link LuaExports} promises; checked once when the instance is caught. */
const REQUIRED_EXPORTS = [
  "malloc",
  "free",
  "realloc",
  "stackSave",
  "stackRestore",
  "lua_newstate",
  "lua_close",
  "lua_newthread",
  "lua_atpanic",
  "lua_gettop",
  "lua_settop",
  "lua_pushvalue",
  "lua_rotate",
  "lua_checkstack",
  "lua_xmove",
  "lua_type",
  "lua_isinteger",
  "lua_tonumberx",
  "lua_tointegerx",
  "lua_toboolean",
  "lua_tolstring",
  "lua_touserdata",
  "lua_topointer",
  "lua_pushnil",
  "lua_pushnumber",
  "lua_pushinteger",
  "lua_pushlstring",
  "lua_pushboolean",
  "lua_pushlightuserdata",
  "lua_pushcclosure",
  "lua_getfield",
  "lua_rawget",
  "lua_getmetatable",
  "lua_rawequal",
  "lua_rawlen",
  "luaL_checkany",
  "lua_rawgeti",
  "lua_createtable",
  "lua_rawset",
  "lua_rawseti",
  "lua_next",
  "lua_newuserdatauv",
  "lua_setmetatable",
  "lua_concat",
  "lua_callk",
  "lua_pcallk",
  "lua_yieldk",
  "lua_resume",
  "lua_isyieldable",
  "lua_error",
  "lua_sethook",
  "luaL_loadbufferx",
  "luaL_traceback",
  "luaL_ref",
  "luaL_unref",
  "luaL_checklstring",
  "luaL_checkinteger",
  "luaL_optlstring",
  "luaL_checktype",
  "luaL_typeerror",
  "luaL_getmetafield",
  "luaL_where",
  "luaopen_base",
  "luaopen_string",
  "luaopen_table",
  "luaopen_math",
  "luaopen_coroutine",
] as const satisfies readonly Exclude<keyof LuaExports, "memory" | "__indirect_function_table">[];

/** Checks that an instance's exports have everything {@link LuaExports} lists. */
function asLuaExports(exports: Record<string, unknown>): LuaExports {
  const missing: string[] = REQUIRED_EXPORTS.filter((name) => typeof exports[name] !== "function");
  if (typeof exports.memory !== "object" || exports.memory === null) missing.push("memory");
  const table = exports.__indirect_function_table;
  if (typeof table !== "object" || table === null) missing.push("__indirect_function_table");
  if (missing.length > 0) {
    throw new Error(`wasmoon's wasm instance lacks the exports ${missing.join(", ")}`);
  }
  return exports as unknown as LuaExports;
}

/**
 * Tells Lua's own unwinding apart from any other JavaScript exception.
 *
 * This emscripten build implements `longjmp` (Lua errors and yields) by throwing the number
 * `Infinity` from the `_emscripten_throw_longjmp` import. The capture wraps that import so that
 * it also sets {@link inFlight}. Code that catches exceptions around Lua calls rethrows an
 * `Infinity` only while the flag is set, so a host function that itself throws a number is still
 * reported as a host error. The VM layer clears the flag whenever control is back in its hands
 * after a normal return from Lua.
 */
export interface UnwindProbe {
  inFlight: boolean;
}

/** A caught Lua instance: its exports and the probe on its longjmp import. */
export interface LuaInstance {
  readonly exports: LuaExports;
  readonly unwind: UnwindProbe;
  /**
   * Whether the linear memory is a shared `WebAssembly.Memory` (see shared-memory.ts), which
   * another thread can write while Lua runs (cancel-watchdog.ts).
   */
  readonly sharedMemory: boolean;
}

/** What {@link captureLuaInstance} returns: the loader's own result and the caught instances. */
export interface CapturedLoad<T> {
  readonly loaded: T;
  /** Every Lua instance created while the loader ran (normally exactly one). */
  readonly candidates: readonly LuaInstance[];
}

/**
 * Runs `load` (wasmoon's `LuaWasm.initialize()`) while `WebAssembly.instantiate` is wrapped, and
 * returns every instance created meanwhile that exports `lua_newstate`.
 *
 * The wrapper forwards every call unchanged, except that in an emscripten import object (one
 * with `invoke_vii` and `_emscripten_throw_longjmp`) it wraps `_emscripten_throw_longjmp` to
 * raise an {@link UnwindProbe} flag first. It puts the original `instantiate` back as soon as
 * `load` settles (unless someone replaced it again meanwhile). The caller picks the instance
 * whose memory is the emscripten module's memory, so a concurrent, unrelated instantiation can
 * never be mistaken for ours.
 */
export async function captureLuaInstance<T>(
  load: () => Promise<T>,
  options: { shareMemory?: boolean } = {},
): Promise<CapturedLoad<T>> {
  const api = wasmApi();
  const original = api.instantiate;
  const candidates: LuaInstance[] = [];
  const observing: WasmApi["instantiate"] = async function (this: unknown, source, imports) {
    const unwind: UnwindProbe = { inFlight: false };
    probeLongjmp(imports, unwind);
    const shared =
      options.shareMemory === true ? await instantiateShared(source, imports) : undefined;
    const result = shared ?? (await original.call(this, source, imports));
    const instance: WasmInstance = "instance" in result ? result.instance : result;
    if (typeof instance.exports.lua_newstate === "function") {
      const sharedMemory = shared !== undefined;
      candidates.push({ exports: asLuaExports(instance.exports), unwind, sharedMemory });
    }
    return result;
  };
  async function instantiateShared(
    source: unknown,
    imports: unknown,
  ): Promise<Awaited<ReturnType<WasmApi["instantiate"]>> | undefined> {
    const env = emscriptenEnv(imports);
    const bytes = bytesOf(source);
    if (env === undefined || bytes === undefined || "memory" in env) return undefined;
    const rewritten = importSharedMemory(bytes);
    if (rewritten === undefined) return undefined;
    const memory = createSharedMemory(rewritten.limits);
    if (memory === undefined) return undefined;
    try {
      return await original.call(api, rewritten.bytes, {
        ...(imports as object),
        env: { ...env, memory },
      });
    } catch {
      return undefined; // the caller instantiates the module as it was
    }
  }
  api.instantiate = observing;
  try {
    const loaded = await load();
    return { loaded, candidates };
  } finally {
    if (api.instantiate === observing) api.instantiate = original;
  }
}

/** The `env` of an emscripten import object (one with `invoke_vii`), else undefined. */
function emscriptenEnv(imports: unknown): Record<string, unknown> | undefined {
  if (typeof imports !== "object" || imports === null) return undefined;
  const env = (imports as { env?: unknown }).env;
  if (typeof env !== "object" || env === null) return undefined;
  const record = env as Record<string, unknown>;
  return typeof record.invoke_vii === "function" ? record : undefined;
}

/** The bytes of a module source given as bytes (not a compiled `WebAssembly.Module`). */
function bytesOf(source: unknown): Uint8Array | undefined {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  return undefined;
}

/** Wraps an emscripten import object's longjmp thrower to set `unwind.inFlight`. */
export function probeLongjmp(imports: unknown, unwind: UnwindProbe): void {
  if (typeof imports !== "object" || imports === null) return;
  const env = (imports as { env?: unknown }).env;
  if (typeof env !== "object" || env === null) return;
  const record = env as Record<string, unknown>;
  const thrower = record._emscripten_throw_longjmp;
  if (typeof thrower !== "function" || typeof record.invoke_vii !== "function") return;
  // emscripten's own thrower is `() => { throw Infinity; }`: when it is, throw the same value
  // directly (one JavaScript frame fewer on every Lua error and yield); otherwise call it.
  const plain = /^\(\)\s*=>\s*\{\s*throw Infinity;?\s*\}$/.test(String(thrower));
  record._emscripten_throw_longjmp = plain
    ? (): never => {
        unwind.inFlight = true;
        throw Number.POSITIVE_INFINITY;
      }
    : function (this: unknown, ...args: unknown[]): unknown {
        unwind.inFlight = true;
        return thrower.apply(this, args);
      };
}

/** Picks the caught instance whose linear memory backs `heap` (the module's `HEAPU8`). */
export function pickInstance(
  candidates: readonly LuaInstance[],
  heap: Uint8Array,
): LuaInstance | undefined {
  return candidates.find((candidate) => candidate.exports.memory.buffer === heap.buffer);
}
