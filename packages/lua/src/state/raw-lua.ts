/**
 * The raw Lua C API this area uses beyond the VM core's typed exports, and small helpers for
 * building Engine globals from JavaScript: no Lua code is loaded per VM, so a VM's setup costs a
 * few dozen C API calls.
 */

import { engineTypeName, pushName } from "../json-lua/lua-api";
import type { LuaState, Ptr } from "../module";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaKernel } from "../vm/kernel";
import type { VmState } from "../vm/vm-state";
import type { LuaExports } from "../wasm-exports";

export { pushName };

/** `t[name] = top` (raw) for the table at absolute index `t`, popping the value. */
export function setRawField(kernel: LuaKernel, L: LuaState, t: number, name: string): void {
  pushName(kernel, L, name);
  kernel.x.lua_rotate(L, -2, 1);
  kernel.x.lua_rawset(L, t);
}

/** Pushes `t[name]` (raw) for the table at absolute index `t`; returns its type tag. */
export function getRawField(kernel: LuaKernel, L: LuaState, t: number, name: string): number {
  pushName(kernel, L, name);
  return kernel.x.lua_rawget(L, t);
}

/**
 * Pushes a C closure that dispatches to `index` (an entry of the VM's function table) with the
 * `upvalues` values already on top of the stack as its upvalues 2.. (they are popped).
 */
export function pushRawClosure(
  kernel: LuaKernel,
  L: LuaState,
  index: number,
  upvalues: number,
): void {
  const { x } = kernel;
  x.lua_pushlightuserdata(L, index);
  if (upvalues > 0) x.lua_rotate(L, -1 - upvalues, 1);
  x.lua_pushcclosure(L, kernel.dispatcher, 1 + upvalues);
}

/** Adds raw function `fn` named `name` to the VM's function table; returns its index. */
export function addRawFunction(state: VmState, name: string, fn: RawCFunction): number {
  return state.functions.add({ kind: "raw", name, fn });
}

/** The address and length of the string at `idx` (valid while Lua holds the string). */
export function stringAt(kernel: LuaKernel, L: LuaState, idx: number): [Ptr, number] {
  const ptr = kernel.x.lua_tolstring(L, idx, kernel.lenCell);
  return [ptr, kernel.heap.u32()[kernel.lenCell >>> 2] ?? 0];
}

/**
 * The Lua type name of the value at `idx`, with `lightuserdata` told apart from `userdata`: the
 * Engine's argument-error name without its integer/float split.
 */
export function typeNameAt(x: LuaExports, L: LuaState, idx: number): string {
  const name = engineTypeName(x, L, idx);
  return name === "integer" ? "number" : name;
}
