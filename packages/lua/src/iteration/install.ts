import type { LuaState } from "../module";
import type { LuaVm } from "../vm/lua-vm";
import { VmHandle } from "../vm/lua-vm";
import { pushGlobals, pushPrivate } from "../vm/sandbox";
import type { VmState } from "../vm/vm-state";
import { ITERATION_CHUNK_NAME, iterationBytecode, ORDER_PRIVATE_KEY } from "./iteration-lua";
import { checkLayout } from "./layout-check";
import { createNextFunction } from "./next-function";
import { createOrderFunction } from "./order-function";
import { CACHE_SLOTS, OrderRuntime } from "./order-runtime";

/**
 * Replaces the `pairs` and `next` globals of a fresh VM with Runvil's deterministic versions
 * (lua-environment.txt, "Deterministic table iteration"): the array part 1..#t first, then
 * boolean keys (false, true), number keys by exact value, valid UTF-8 string keys bytewise,
 * then the keys with no fixed order (tables, functions, userdata and threads in Lua's own
 * traversal order, then -inf and +inf, then strings that are not valid UTF-8). pairs honours
 * `__pairs` and walks a snapshot of the keys, reading values live; next steps through the live
 * table. Prompt code cannot reach the originals: they stay only in the private table.
 *
 * Call once per VM before prompt code runs. Costs one bytecode load and run (a few
 * microseconds; the first call in a process also checks the Lua table layout it relies on).
 */
export function installIteration(vm: LuaVm): void {
  const state = VmHandle.stateOf(vm);
  const bytecode = iterationBytecode(state.kernel.module);
  state.hostOp(() => {
    checkLayout(state);
    const runtime = new OrderRuntime(state);
    pushHolders(state); // [tables, keyLists, empty]
    const holders = state.kernel.x.lua_gettop(state.L) - 2;
    pushPrivate(state); // [tables, keyLists, empty, P]
    pushName(state, ORDER_PRIVATE_KEY);
    pushClosure(state, holders, "pairs", createOrderFunction(runtime));
    state.kernel.x.lua_rawset(state.L, -3);
    pushGlobals(state); // [tables, keyLists, empty, P, G]
    pushName(state, "next");
    pushClosure(state, holders, "next", createNextFunction(runtime));
    state.kernel.x.lua_rawset(state.L, -3);
    state.kernel.x.lua_settop(state.L, -6);
  });
  const outcome = vm.runPrivileged({
    bytecode,
    chunkName: ITERATION_CHUNK_NAME,
    args: [ORDER_PRIVATE_KEY],
  });
  if (!outcome.ok) throw new Error(`installing pairs failed: ${outcome.message}`);
}

/**
 * Pushes the tables the C functions keep as upvalues: the cached tables (weak values), their
 * key lists, and the empty key list shared by tables with no hash-part key.
 */
function pushHolders(state: VmState): void {
  const { kernel, L } = state;
  const { x } = kernel;
  x.lua_createtable(L, CACHE_SLOTS, 0);
  x.lua_createtable(L, 0, 1);
  pushName(state, "__mode");
  pushName(state, "v");
  x.lua_rawset(L, -3);
  x.lua_setmetatable(L, -2);
  x.lua_createtable(L, CACHE_SLOTS, 0);
  x.lua_createtable(L, 0, 0);
}

/** Pushes one of the area's constant ASCII names (from its C string, without encoding it). */
function pushName(state: VmState, name: string): void {
  state.kernel.x.lua_pushlstring(state.L, state.kernel.cString(name), name.length);
}

/** Pushes a C closure of the dispatcher for `fn` with the three tables at `holders` as upvalues 2-4. */
function pushClosure(
  state: VmState,
  holders: number,
  name: string,
  fn: (L: LuaState) => number,
): void {
  const { kernel, L } = state;
  const { x } = kernel;
  x.lua_pushlightuserdata(L, state.functions.add({ kind: "raw", name, fn }));
  x.lua_pushvalue(L, holders);
  x.lua_pushvalue(L, holders + 1);
  x.lua_pushvalue(L, holders + 2);
  x.lua_pushcclosure(L, kernel.dispatcher, 4);
}
