import { LuaStatus } from "../raw-api";
import { cancelledFailure, failureAt, loadChunk, pushArgs, readValuesAt, reasonOf } from "./chunk";
import { LUA_MULTRET } from "./constants";
import type { BlockChunk, BlockOutcome } from "./outcome";
import { pushPrivate } from "./sandbox";
import type { VmState } from "./vm-state";

/**
 * Runs Engine Lua code synchronously on the VM's main thread, in protected mode, with the
 * private table (raw access functions, the coroutine library, the originals of the base
 * functions) as its first argument, then `chunk.args`. For code that installs guards and
 * wrappers around the sandbox; never for prompt code. It cannot suspend (a host function that
 * returns a Promise raises `attempt to yield across a C-call boundary`), runs under the memory
 * limit and the cancellation hook, and its failures carry no traceback.
 */
export function runPrivileged(state: VmState, chunk: BlockChunk): BlockOutcome {
  state.assertUsable();
  if (state.executing > 0) {
    throw new Error("runPrivileged cannot start while Lua code runs on this VM");
  }
  const { kernel, L } = state;
  const { x } = kernel;
  const top = x.lua_gettop(L);
  try {
    const loadStatus = loadChunk(state, L, chunk);
    if (loadStatus !== LuaStatus.OK) {
      return state.hostOp(() => failureAt(state, L, reasonOf(loadStatus), ""));
    }
    const nargs = state.hostOp(() => {
      pushPrivate(state);
      return 1 + pushArgs(state, L, chunk.args);
    });
    const sp = x.stackSave();
    let status: number;
    state.executing++;
    try {
      status = x.lua_pcallk(L, nargs, LUA_MULTRET, 0, 0, 0);
      kernel.clearUnwinding();
    } catch (error) {
      x.stackRestore(sp);
      state.broken = true;
      throw error;
    } finally {
      state.executing--;
    }
    if (state.cancelled) return cancelledFailure("");
    if (status !== LuaStatus.OK)
      return state.hostOp(() => failureAt(state, L, reasonOf(status), ""));
    return state.hostOp(() => readValuesAt(state, L, top + 1, x.lua_gettop(L)));
  } finally {
    if (!state.broken && !state.closed) x.lua_settop(L, top);
  }
}
