import { LuaWasm } from "wasmoon";
import { captureLuaInstance, type LuaInstance, pickInstance } from "./wasm-exports";

/** A pointer into the wasm linear memory (wasm32: a byte offset). */
export type Ptr = number;

/** A `lua_State*` pointer. */
export type LuaState = Ptr;

/**
 * The raw exports of wasmoon's emscripten module that this package calls directly, typed.
 *
 * These are the C functions themselves (`_lua_*`, `luaL_*`, `luaopen_*`, `_malloc`, `_free`),
 * not wasmoon's `cwrap`ped `LuaWasm` methods, which cost about 0.2 µs more per call. Strings never
 * cross as JS strings here: callers pass pointers to UTF-8 bytes (see raw-api.ts).
 *
 * `HEAPU8` and `HEAPU32` are replaced by emscripten whenever the linear memory grows, so read them
 * through this object every time and never keep a view across a call into Lua.
 */
export interface LuaModule {
  readonly HEAPU8: Uint8Array;
  readonly HEAPU32: Uint32Array;
  _malloc(size: number): Ptr;
  _free(ptr: Ptr): void;
  _luaL_newstate(): LuaState;
  _lua_close(L: LuaState): void;
  _luaL_loadbufferx(L: LuaState, buff: Ptr, size: number, name: Ptr, mode: Ptr): number;
  _lua_pcallk(
    L: LuaState,
    nargs: number,
    nresults: number,
    errfunc: number,
    ctx: number,
    k: Ptr,
  ): number;
  _lua_tolstring(L: LuaState, idx: number, len: Ptr): Ptr;
  _lua_type(L: LuaState, idx: number): number;
  _lua_gettop(L: LuaState): number;
  _lua_settop(L: LuaState, idx: number): void;
  _lua_pushvalue(L: LuaState, idx: number): void;
  _lua_rotate(L: LuaState, idx: number, n: number): void;
  _lua_getfield(L: LuaState, idx: number, k: Ptr): number;
  _luaopen_string(L: LuaState): number;
  /**
   * Puts a JavaScript function into the wasm function table and returns its index (a C function
   * pointer). `signature` is emscripten's: result letter then parameter letters, `i` for i32 and
   * `v` for void (`"ii"` is a lua_CFunction). On Node 20 each call compiles a small wasm module,
   * so add a function once per process, never per state or per call.
   */
  addFunction(fn: (...args: number[]) => number | undefined, signature: string): number;
}

/** Names of the exported functions that {@link LuaModule} promises; checked once at load time. */
const REQUIRED_FUNCTIONS = [
  "_malloc",
  "_free",
  "_luaL_newstate",
  "_lua_close",
  "_luaL_loadbufferx",
  "_lua_pcallk",
  "_lua_tolstring",
  "_lua_type",
  "_lua_gettop",
  "_lua_settop",
  "_lua_pushvalue",
  "_lua_rotate",
  "_lua_getfield",
  "_luaopen_string",
  "addFunction",
] as const satisfies readonly (keyof LuaModule)[];

/** Checks at run time that wasmoon's emscripten module has every export {@link LuaModule} lists. */
function asLuaModule(candidate: unknown): LuaModule {
  if (typeof candidate !== "object" || candidate === null) {
    throw new Error("wasmoon did not return an emscripten module object");
  }
  const record = candidate as Record<string, unknown>;
  const missing: string[] = REQUIRED_FUNCTIONS.filter((name) => typeof record[name] !== "function");
  if (!(record.HEAPU8 instanceof Uint8Array)) missing.push("HEAPU8");
  if (!(record.HEAPU32 instanceof Uint32Array)) missing.push("HEAPU32");
  if (missing.length > 0) {
    throw new Error(`wasmoon's module lacks the raw exports ${missing.join(", ")}`);
  }
  return candidate as LuaModule;
}

let modulePromise: Promise<LuaModule> | undefined;

/**
 * Whether to give the module a shared linear memory (hook-free cancellation, lua-vm.md): yes
 * unless the environment variable `RUNVIL_LUA_SHARED_MEMORY` is `0` (for measuring the fallback,
 * which is also what a runtime without shared memory gets).
 */
export function sharedMemoryWanted(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.RUNVIL_LUA_SHARED_MEMORY !== "0";
}

/** The wasm instance behind each module whose instance was caught at load. */
const instances = new WeakMap<LuaModule, LuaInstance>();

/** Initializes wasmoon, catching its wasm instance on the way (see captureLuaInstance). */
async function initializeModule(): Promise<LuaModule> {
  const { loaded, candidates } = await captureLuaInstance(() => LuaWasm.initialize(), {
    shareMemory: sharedMemoryWanted(),
  });
  const module = asLuaModule(loaded.module);
  const instance = pickInstance(candidates, module.HEAPU8);
  if (instance !== undefined) instances.set(module, instance);
  return module;
}

/**
 * The wasm instance behind `module`: its raw exports (the C functions without emscripten's
 * wrappers, the memory and the function table) and its unwind probe. Throws if the instance
 * could not be caught when the module loaded, which the VM layer needs and the compile path
 * does not.
 */
export function luaInstanceOf(module: LuaModule): LuaInstance {
  const instance = instances.get(module);
  if (instance === undefined) {
    throw new Error(
      "wasmoon's wasm instance was not caught at load, so Lua VMs cannot be created " +
        "(is wasmoon still 1.16.0, instantiated with WebAssembly.instantiate?)",
    );
  }
  return instance;
}

/**
 * Instantiates wasmoon's WebAssembly module once per process and returns its raw exports.
 *
 * Memoized: concurrent and later callers share one promise. A failed load is forgotten, so the
 * next call tries again. The returned module is shared by every Lua state this package creates.
 */
export function loadLuaModule(): Promise<LuaModule> {
  if (modulePromise === undefined) {
    const loading = initializeModule();
    modulePromise = loading;
    loading.catch(() => {
      if (modulePromise === loading) modulePromise = undefined;
    });
  }
  return modulePromise;
}
