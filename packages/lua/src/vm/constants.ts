import { LUA_REGISTRYINDEX } from "../raw-api";

/** `lua_upvalueindex(i)`: the pseudo-index of a C closure's i-th upvalue. */
export function upvalueIndex(i: number): number {
  return LUA_REGISTRYINDEX - i;
}

/** The pseudo-index of a C closure's first upvalue (the host function's index). */
export const UPVALUE_1 = upvalueIndex(1);

/** The pseudo-index of a C closure's second upvalue. */
export const UPVALUE_2 = upvalueIndex(2);

/** `LUA_RIDX_GLOBALS`: the registry slot of the global table, as a lua_Integer. */
export const RIDX_GLOBALS = 2n;

/** `LUA_MASKCOUNT`: call the hook every `count` instructions. */
export const LUA_MASKCOUNT = 8;

/** `LUA_MULTRET`. */
export const LUA_MULTRET = -1;

/** Bytes before a `lua_State*` that Lua leaves to the host (LUA_EXTRASPACE = sizeof(void*)). */
export const EXTRASPACE_BYTES = 4;
