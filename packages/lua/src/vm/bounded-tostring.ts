import type { LuaState } from "../module";
import { LuaStatus, LuaTypeTag } from "../raw-api";
import { LUA_MASKCOUNT } from "./constants";
import { absIndex } from "./marshal";
import type { VmState } from "./vm-state";

/** Hook calls (of HOOK_PERIOD instructions each) a raised value's __tostring may run for. */
export const TOSTRING_HOOK_CALLS = 100;

/** Instructions between two hook calls while a __tostring runs. */
export const TOSTRING_HOOK_PERIOD = 1000;

/** What the count hook raises when a __tostring spends its instruction budget. */
export const TOSTRING_BUDGET_MESSAGE = "__tostring ran too long";

/**
 * The text a table or userdata at `idx` of `L` gives through its metatable's `__tostring`, as
 * the standalone interpreter gives an uncaught non-string error object its text, or undefined
 * when it has none or the call does not give a string (docs/design/errors.md). Call inside a
 * host op, after the block's thread ended.
 *
 * The call is bounded and cannot break the run: it runs on the main thread in protected mode
 * (so a raise, or a yield, which fails there, gives undefined), under the VM's memory limit
 * (which the host op lifted) and a budget of TOSTRING_HOOK_CALLS × TOSTRING_HOOK_PERIOD
 * instructions, and not at all once the VM is cancelled. The metatable is read raw, so a
 * protecting `__metatable` field does not hide it.
 */
export function boundedToString(state: VmState, L: LuaState, at: number): string | undefined {
  if (state.cancelled || state.closed || state.broken) return undefined;
  const { kernel } = state;
  const { x } = kernel;
  const main = state.L;
  const idx = absIndex(kernel, L, at);
  const type = x.lua_type(L, idx);
  if (type !== LuaTypeTag.TABLE && type !== LuaTypeTag.USERDATA) return undefined;
  if (x.lua_checkstack(main, 4) === 0 || x.lua_checkstack(L, 2) === 0) return undefined;
  const top = x.lua_gettop(main);
  if (x.lua_getmetatable(L, idx) === 0) return undefined;
  kernel.pushText(L, "__tostring");
  const fieldType = x.lua_rawget(L, -2);
  if (fieldType !== LuaTypeTag.FUNCTION) {
    x.lua_settop(L, -3);
    return undefined;
  }
  x.lua_rotate(L, -2, 1); // the function below the metatable
  x.lua_settop(L, -2);
  x.lua_pushvalue(L, idx);
  if (L !== main) x.lua_xmove(L, main, 2);
  const limit = state.account.limit;
  state.account.limit = state.limitBytes;
  state.hookBudget = TOSTRING_HOOK_CALLS;
  x.lua_sethook(main, kernel.hook, LUA_MASKCOUNT, TOSTRING_HOOK_PERIOD);
  const sp = x.stackSave();
  let status: number;
  state.executing++;
  try {
    status = x.lua_pcallk(main, 1, 1, 0, 0, 0);
    kernel.clearUnwinding();
  } catch (error) {
    x.stackRestore(sp);
    state.broken = true;
    throw error;
  } finally {
    state.executing--;
    state.hookBudget = undefined;
    state.account.limit = limit;
    state.hooks.restoreMain(main);
  }
  try {
    if (status !== LuaStatus.OK || x.lua_type(main, -1) !== LuaTypeTag.STRING) return undefined;
    return kernel.readText(main, -1);
  } finally {
    x.lua_settop(main, top);
  }
}
