import { argumentError } from "../engine-error";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { LuaVm } from "../vm/lua-vm";
import { VmHandle } from "../vm/lua-vm";
import { pushValue } from "../vm/marshal";
import { pushGlobals, pushPrivate } from "../vm/sandbox";
import type { HostFunction } from "../vm/values";
import type { VmState } from "../vm/vm-state";
import { globalsBytecode } from "./guard-bytecode";
import { GLOBALS_CHUNK_NAME } from "./guard-lua";
import { readOnlyGlobalMessage } from "./messages";
import {
  AUTHOR_SLOT,
  createSandboxGetmetatable,
  createSandboxSetmetatable,
} from "./metatable-functions";

/**
 * The field of the VM's private table that holds the guard state table. Engine Lua run through
 * `vm.runPrivileged` reaches the guard as `(...).global_guard`:
 * - `serve(name, read, assign)`: serves `name` (raw `_G[name]` is cleared). Every read of the
 *   global calls `read(name)` and gives its first result; every assignment calls
 *   `assign(name, value)` (absent: a refusal `{name} is read-only`). Neither reaches an author
 *   metatable.
 * - `unserve(name)`, `is_served(name)`.
 * - `getmetatable(v)`: what the sandbox's getmetatable answers (the author metatable for `_G`,
 *   `__metatable` respected), without its argument check; for Engine code such as json.array.
 * - `[1]`: the author metatable, or `false`. Read only.
 */
export const GLOBAL_GUARD_PRIVATE_KEY = "global_guard";

/** A name the Engine guard on `_G` serves itself, such as `argv`, `prose` or `messages`. */
export interface ServedGlobal {
  /**
   * Called on every read of the global, with the name as argument 1; its first result is what
   * the read gives. It runs in the reading block's thread, so it may suspend.
   */
  readonly read: HostFunction;
  /**
   * Called on every assignment of the global, with the name and the value. Throw (an
   * EngineError, say) to refuse. Absent: every assignment is refused with an error of kind
   * `lua` and the message `{name} is read-only`.
   */
  readonly assign?: HostFunction;
}

/** How {@link installGlobalGuard} fills a VM. */
export interface GlobalGuardOptions {
  /** Names the guard serves from the start (see {@link GlobalGuard.serve}). */
  readonly served?: Readonly<Record<string, ServedGlobal>>;
}

/** The Engine guard on one VM's `_G`, as {@link installGlobalGuard} returns it. */
export interface GlobalGuard {
  /** The VM the guard is installed in. */
  readonly vm: LuaVm;
  /**
   * Serves `name` through the guard: a raw `_G[name]` is removed (a raw read gives nil, and
   * listing `_G` does not show it), reads call `handlers.read` and assignments
   * `handlers.assign`, before and instead of any author metatable. Serving a name again
   * replaces its handlers.
   */
  serve(name: string, handlers: ServedGlobal): void;
  /** Stops serving `name` (its reads and assignments then reach the author metatable). */
  unserve(name: string): void;
  /** Whether the guard serves `name`. */
  isServed(name: string): boolean;
  /** Whether `_G` has an author metatable now (`setmetatable(_G, mt)` with a table). */
  hasAuthorMetatable(): boolean;
}

/** The default assign handler of a served name: refuses with `{name} is read-only`. */
const refuseAssignment: HostFunction = (call) => {
  throw argumentError(readOnlyGlobalMessage(call.text(1) ?? "this global"));
};

/**
 * Installs the Engine guard on `_G` and the sandbox functions that go with it into a fresh VM:
 * - the guard, `_G`'s real metatable, which serves registered names (see GlobalGuard.serve) and
 *   puts an author metatable behind itself (`__index`/`__newindex` read live, other fields
 *   copied at each `setmetatable(_G, mt)`);
 * - setmetatable and getmetatable that treat `_G` that way and every other value as stock Lua,
 *   with finalizers (`__gc`) refused everywhere and `__mode` refused on `_G`;
 * - table.concat that joins userdata and tables with `__tostring` through tostring and names the
 *   type and index of an element it cannot join.
 * Call it once per VM, before any prompt code runs and before other areas serve names (a second
 * call throws). Costs one bytecode load and run: a few microseconds.
 */
export function installGlobalGuard(vm: LuaVm, options: GlobalGuardOptions = {}): GlobalGuard {
  const state = VmHandle.stateOf(vm);
  const bytecode = globalsBytecode(state.kernel.module);
  state.hostOp(() => createGuardState(state));
  const outcome = vm.runPrivileged({
    bytecode,
    chunkName: GLOBALS_CHUNK_NAME,
    args: [refuseAssignment],
  });
  if (!outcome.ok) throw new Error(`installing the _G guard failed: ${outcome.message}`);
  const guard = new GuardHandle(vm, state);
  for (const [name, handlers] of Object.entries(options.served ?? {})) guard.serve(name, handlers);
  return guard;
}

/**
 * Creates the guard state table `S` (`S[1] = false`: no author metatable), stores it as
 * `P.global_guard`, and sets the global setmetatable and getmetatable to the sandbox's C
 * functions, each with `S` as upvalue 2.
 */
function createGuardState(state: VmState): void {
  const { kernel, L } = state;
  const { x } = kernel;
  pushPrivate(state); // [P]
  if (x.lua_getfield(L, -1, kernel.cString(GLOBAL_GUARD_PRIVATE_KEY)) !== LuaTypeTag.NIL) {
    throw new Error("the _G guard is already installed in this LuaVm");
  }
  x.lua_settop(L, -2);
  x.lua_createtable(L, 1, 12); // [P, S]
  x.lua_pushboolean(L, 0);
  x.lua_rawseti(L, -2, AUTHOR_SLOT);
  kernel.pushText(L, GLOBAL_GUARD_PRIVATE_KEY);
  x.lua_pushvalue(L, -2);
  x.lua_rawset(L, -4); // P.global_guard = S
  pushGlobals(state); // [P, S, G]
  const functions = [
    ["setmetatable", createSandboxSetmetatable(state)],
    ["getmetatable", createSandboxGetmetatable(state)],
  ] as const;
  for (const [name, fn] of functions) {
    const index = state.functions.add({ kind: "raw", name, fn });
    kernel.pushText(L, name);
    x.lua_pushlightuserdata(L, index);
    x.lua_pushvalue(L, -4); // S
    x.lua_pushcclosure(L, kernel.dispatcher, 2);
    x.lua_rawset(L, -3);
  }
  x.lua_settop(L, -4);
}

/** The GlobalGuard over one VM's guard state (`P.global_guard`). */
class GuardHandle implements GlobalGuard {
  readonly vm: LuaVm;
  private readonly state: VmState;

  constructor(vm: LuaVm, state: VmState) {
    this.vm = vm;
    this.state = state;
  }

  serve(name: string, handlers: ServedGlobal): void {
    const { state } = this;
    const { kernel, L } = state;
    const { x } = kernel;
    state.hostOp(() => {
      pushGuardState(state); // [S]
      setHandler(state, L, "read", name, handlers.read);
      setHandler(state, L, "assign", name, handlers.assign ?? refuseAssignment);
      pushGlobals(state); // [S, G]
      kernel.pushText(L, name);
      x.lua_pushnil(L);
      x.lua_rawset(L, -3);
      x.lua_settop(L, -3);
    });
  }

  unserve(name: string): void {
    const { state } = this;
    state.hostOp(() => {
      pushGuardState(state);
      setHandler(state, state.L, "read", name, undefined);
      setHandler(state, state.L, "assign", name, undefined);
      state.kernel.x.lua_settop(state.L, -2);
    });
  }

  isServed(name: string): boolean {
    const { state } = this;
    const { kernel, L } = state;
    return state.hostOp(() => {
      pushGuardState(state); // [S]
      kernel.x.lua_getfield(L, -1, kernel.cString("read")); // [S, read]
      kernel.pushText(L, name);
      const served = kernel.x.lua_rawget(L, -2) !== LuaTypeTag.NIL;
      kernel.x.lua_settop(L, -4);
      return served;
    });
  }

  hasAuthorMetatable(): boolean {
    const { state } = this;
    return state.hostOp(() => {
      pushGuardState(state);
      const type = state.kernel.x.lua_rawgeti(state.L, -1, AUTHOR_SLOT);
      state.kernel.x.lua_settop(state.L, -3);
      return type === LuaTypeTag.TABLE;
    });
  }
}

/** Pushes the guard state table `S` (`P.global_guard`). */
function pushGuardState(state: VmState): void {
  const { kernel, L } = state;
  pushPrivate(state);
  kernel.x.lua_getfield(L, -1, kernel.cString(GLOBAL_GUARD_PRIVATE_KEY));
  kernel.x.lua_rotate(L, -2, 1);
  kernel.x.lua_settop(L, -2);
}

/** `S[table][name] = fn` (a host function), or removes it when `fn` is undefined; S on top. */
function setHandler(
  state: VmState,
  L: LuaState,
  table: "read" | "assign",
  name: string,
  fn: HostFunction | undefined,
): void {
  const { kernel } = state;
  kernel.x.lua_getfield(L, -1, kernel.cString(table)); // [S, handlers]
  kernel.pushText(L, name);
  pushValue(state, L, fn, name);
  kernel.x.lua_rawset(L, -3);
  kernel.x.lua_settop(L, -2);
}
