import type { LuaState } from "../module";
import { LUA_REGISTRYINDEX, LuaTypeTag } from "../raw-api";
import { RIDX_GLOBALS } from "./constants";
import { createRepGuard } from "./rep-guard";
import { createSetmetatableGuard } from "./setmetatable-guard";
import type { VmState } from "./vm-state";

/**
 * The 18 Lua globals a section VM keeps (the spec's "whole toolkit"): the string, table and math
 * libraries, 13 base functions, `_G` and `_VERSION`. Sorted bytewise.
 */
export const KEPT_LUA_GLOBALS: readonly string[] = [
  "_G",
  "_VERSION",
  "assert",
  "error",
  "getmetatable",
  "ipairs",
  "math",
  "next",
  "pairs",
  "pcall",
  "select",
  "setmetatable",
  "string",
  "table",
  "tonumber",
  "tostring",
  "type",
  "xpcall",
];

/**
 * Base-library globals removed from `_G` (they read nil in a block). Their originals stay in the
 * private table. The io, os, package, debug, utf8 and coroutine libraries are never installed
 * as globals at all.
 */
export const REMOVED_BASE_GLOBALS: readonly string[] = [
  "print",
  "warn",
  "collectgarbage",
  "dofile",
  "loadfile",
  "load",
  "rawequal",
  "rawget",
  "rawlen",
  "rawset",
];

/**
 * The registry key of the VM's private table, which Lua code can never reach (no debug library,
 * no registry access). It holds the original of every base function (`rawget`, `rawset`,
 * `rawequal`, `rawlen`, `pcall`, `load`, ...), the `coroutine` library and the original
 * `string_rep`. Engine code receives it as its first argument in LuaVm.runPrivileged.
 */
export const PRIVATE_REGISTRY_KEY = "runvil.private";

/** The libraries installed as globals, each also recorded in `_LOADED` for traceback names. */
const LIBRARIES = ["string", "table", "math"] as const;

/**
 * Fills a new state: the base library (then stripped to the kept names, setmetatable behind the
 * finalizer guard), string, table and math as globals, coroutine only in the private table,
 * `_LOADED` (so tracebacks name functions as `function 'string.rep'`, as stock Lua does), the
 * string.rep guard, and a fixed random seed.
 * Runs as a host op (limit lifted; raw table writes only).
 */
export function installSandbox(state: VmState, randomSeed: bigint): void {
  const { kernel, L } = state;
  const { x } = kernel;
  x.luaopen_base(L); // [G]
  const G = x.lua_gettop(L);
  x.lua_createtable(L, 0, 32); // [G, P]
  const P = x.lua_gettop(L);
  copyFields(state, G, P);
  for (const name of REMOVED_BASE_GLOBALS) {
    kernel.pushText(L, name);
    x.lua_pushnil(L);
    x.lua_rawset(L, G);
  }
  guardSetmetatable(state, G);
  x.lua_createtable(L, 0, LIBRARIES.length + 1); // [G, P, LOADED]
  const LOADED = x.lua_gettop(L);
  setField(state, LOADED, "_G", G);
  const openers = { string: x.luaopen_string, table: x.luaopen_table, math: x.luaopen_math };
  for (const name of LIBRARIES) {
    openers[name](L); // [.., lib]
    const lib = x.lua_gettop(L);
    setField(state, G, name, lib);
    setField(state, LOADED, name, lib);
    if (name === "string") guardStringRep(state, lib, P);
    if (name === "math") seedRandom(state, lib, randomSeed);
    x.lua_settop(L, lib - 1);
  }
  x.luaopen_coroutine(L);
  trackCoroutines(state, x.lua_gettop(L));
  setField(state, P, "coroutine", x.lua_gettop(L));
  x.lua_settop(L, LOADED);
  setRegistryField(state, "_LOADED", LOADED);
  setRegistryField(state, PRIVATE_REGISTRY_KEY, P);
  x.lua_settop(L, G - 1);
}

/** Copies every field of table `from` into table `to` (raw). */
function copyFields(state: VmState, from: number, to: number): void {
  const { x } = state.kernel;
  const { L } = state;
  x.lua_pushnil(L);
  while (x.lua_next(L, from) !== 0) {
    x.lua_pushvalue(L, -2); // [k, v, k]
    x.lua_rotate(L, -2, 1); // [k, k, v]
    x.lua_rawset(L, to); // [k]
  }
}

/** `t[name] = stack[valueIndex]`, raw. */
function setField(state: VmState, table: number, name: string, valueIndex: number): void {
  const { x } = state.kernel;
  state.kernel.pushText(state.L, name);
  x.lua_pushvalue(state.L, valueIndex);
  x.lua_rawset(state.L, table);
}

/** `registry[name] = stack[valueIndex]`. */
function setRegistryField(state: VmState, name: string, valueIndex: number): void {
  setField(state, LUA_REGISTRYINDEX, name, valueIndex);
}

/**
 * Makes the private coroutine library's `create` list every coroutine it makes with the VM's
 * hook control (hook-control.ts), anchored in the registry until the VM closes, so that the
 * watchdog can arm a coroutine that spins (a Pack prelude loads in one); `wrap`, which makes its
 * coroutine where nothing can list it, is removed (no Runvil code uses it).
 */
function trackCoroutines(state: VmState, lib: number): void {
  const { kernel, L } = state;
  const { x } = kernel;
  const fn = (co: LuaState): number => {
    x.luaL_checktype(co, 1, LuaTypeTag.FUNCTION);
    const thread = x.lua_newthread(co); // [f, thread]
    x.lua_pushvalue(co, 1);
    x.lua_xmove(co, thread, 1); // [f, thread]
    x.lua_pushvalue(co, -1);
    x.luaL_ref(co, LUA_REGISTRYINDEX); // anchored until lua_close
    state.hooks.add(thread);
    return 1;
  };
  const index = state.functions.add({ kind: "raw", name: "coroutine.create", fn });
  kernel.pushText(L, "create");
  x.lua_pushlightuserdata(L, index);
  x.lua_pushcclosure(L, kernel.dispatcher, 1);
  x.lua_rawset(L, lib);
  kernel.pushText(L, "wrap");
  x.lua_pushnil(L);
  x.lua_rawset(L, lib);
}

/** Replaces the global setmetatable by the finalizer-refusing guard (the original stays in P). */
function guardSetmetatable(state: VmState, G: number): void {
  const { kernel, L } = state;
  const fn = createSetmetatableGuard(state);
  const index = state.functions.add({ kind: "raw", name: "setmetatable", fn });
  kernel.pushText(L, "setmetatable");
  kernel.x.lua_pushlightuserdata(L, index);
  kernel.x.lua_pushcclosure(L, kernel.dispatcher, 1);
  kernel.x.lua_rawset(L, G);
}

/** Replaces string.rep (table at `lib`) by the guard; keeps the original as P.string_rep. */
function guardStringRep(state: VmState, lib: number, P: number): void {
  const { kernel, L } = state;
  const { x } = kernel;
  x.lua_getfield(L, lib, kernel.cString("rep")); // [.., rep]
  setField(state, P, "string_rep", x.lua_gettop(L));
  const index = state.functions.add({ kind: "raw", name: "string.rep", fn: createRepGuard(state) });
  x.lua_pushlightuserdata(L, index); // [.., rep, id]
  x.lua_rotate(L, -2, 1); // [.., id, rep]
  x.lua_pushcclosure(L, kernel.dispatcher, 2); // [.., guard]
  kernel.pushText(L, "rep");
  x.lua_rotate(L, -2, 1);
  x.lua_rawset(L, lib);
}

/**
 * Seeds math.random with `seed`: Lua 5.4 seeds it from the clock and an address when the library
 * opens, and a VM must not depend on either.
 */
function seedRandom(state: VmState, lib: number, seed: bigint): void {
  const { kernel, L } = state;
  kernel.x.lua_getfield(L, lib, kernel.cString("randomseed"));
  kernel.x.lua_pushinteger(L, seed);
  kernel.x.lua_callk(L, 1, 0, 0, 0);
}

/** Pushes the global table. */
export function pushGlobals(state: VmState, L: LuaState = state.L): void {
  state.kernel.x.lua_rawgeti(L, LUA_REGISTRYINDEX, RIDX_GLOBALS);
}

/** Pushes the private table. */
export function pushPrivate(state: VmState, L: LuaState = state.L): void {
  state.kernel.x.lua_getfield(L, LUA_REGISTRYINDEX, state.kernel.cString(PRIVATE_REGISTRY_KEY));
}
