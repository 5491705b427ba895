import type { CancelOptions } from "./cancel";
import { readBudgetOf } from "./chunk";
import type { LuaKernel } from "./kernel";
import { pushValue, readValue, typeNameOf } from "./marshal";
import { closeVmState, openVmState } from "./open-state";
import type { BlockChunk, BlockOutcome } from "./outcome";
import { runPrivileged } from "./privileged";
import { runBlock } from "./run-block";
import { pushGlobals } from "./sandbox";
import type { HostFunction, LuaRecord, LuaValue } from "./values";
import type { VmState } from "./vm-state";

/** How a LuaVm is created. Every field is optional. */
export interface LuaVmOptions extends CancelOptions {
  /**
   * The Lua heap limit in bytes (the spec's `lua_memory_bytes`), 64 MiB (67108864) by default,
   * from 1 to 2 GiB. An allocation past it is refused and Lua raises `not enough memory`, which
   * pcall can catch; the state stays usable. Counts what Lua asks for, setup included (about
   * 12 KiB).
   */
  luaMemoryBytes?: number;
  /** The seed math.random starts from (`math.randomseed(seed)` at creation); 0 by default. */
  randomSeed?: number | bigint;
  /**
   * A flag another thread can set to cancel: an Int32Array over a SharedArrayBuffer; a non-zero
   * value at `cancelFlagIndex` (0 by default) cancels. Read with Atomics.load on every hook call
   * and before every resume.
   */
  cancelFlag?: Int32Array;
  /** The flag's index in `cancelFlag`. */
  cancelFlagIndex?: number;
  /**
   * An in-thread cancel check, such as a deadline, called every `shouldCancelEvery` hook calls
   * (16 by default) and before every resume. Returning true (or throwing) cancels.
   */
  shouldCancel?: () => boolean;
  /** Hook calls between two calls of `shouldCancel`. */
  shouldCancelEvery?: number;
  /**
   * Declares that `shouldCancel` can turn true while Lua runs only when one of these shared
   * flags is set (anything else that changes its answer happens in JavaScript on this thread,
   * which the VM sees before every resume, or through cancel()). The VM then needs no hook while
   * Lua runs: it runs at full speed and the watchdog arms the hook when a flag (or
   * `cancelFlag`) is set (docs/design/lua-vm.md "Hook-free cancellation"). Without it, a
   * `shouldCancel` (a deadline) keeps the count hook armed.
   */
  shouldCancelFlags?: readonly { readonly flag: Int32Array; readonly index: number }[];
  /**
   * Lua VM instructions between two hook calls (1000 by default). The count hook is needed only
   * when `cancelFlag` or `shouldCancel` is given; while armed, Lua runs up to about 2× slower on
   * instruction-bound code whatever the period. Where the wasm memory is shared, a VM whose
   * sources are all flags (`cancelFlag`, `shouldCancelFlags`) runs with no hook until a flag is
   * set or cancel() is called (see docs/design/lua-vm.md).
   */
  hookInstructions?: number;
}

/**
 * One sandboxed Lua state: a section VM. Created by LuaVmFactory.create, filled with globals,
 * runs blocks (each in its own Lua thread, able to suspend on async host functions), closed
 * when the section ends. Everything Lua allocates counts against its memory limit and is freed
 * by close(). A closed VM refuses every further call with `this LuaVm is closed`.
 */
export interface LuaVm {
  /** Whether close() has run. */
  readonly closed: boolean;
  /**
   * Whether the VM has been cancelled (sticky): by cancel(), the cancel flag or shouldCancel.
   * Blocks then end with reason `cancelled`, and no new block starts.
   */
  readonly cancelled: boolean;
  /** Bytes the Lua heap holds now (0 after close). */
  readonly memoryUsed: number;
  /** The Lua memory limit in bytes. */
  readonly memoryLimit: number;
  /** How many times the cancellation hook has been called (0 when it is not armed). */
  readonly hookCalls: number;
  /**
   * Sets global `name` to `value` (raw: no metamethod of `_G` runs). Functions become host
   * functions, and an object of functions is a library table (`{ read, write }`); see LuaValue.
   * Throws a TypeError or RangeError for values that cannot cross. Host values are not counted
   * against the memory limit when pushed (the limit is lifted for host-side work), but they are
   * part of `memoryUsed` afterwards.
   */
  setGlobal(name: string, value: LuaValue): void;
  /** Sets every field of `globals` as a global, in key order, in one pass (see setGlobal). */
  setGlobals(globals: LuaRecord): void;
  /** Sets global `name` to a host function. */
  setGlobalFunction(name: string, fn: HostFunction): void;
  /**
   * Sets `_G[tableName][field]` to a host function named `tableName.field`, creating the table
   * global when it is absent. Throws a TypeError when the global exists and is not a table.
   */
  setTableFunction(tableName: string, field: string, fn: HostFunction): void;
  /** Global `name` read into JavaScript (raw; see LuaValue). */
  getGlobal(name: string): LuaValue;
  /** The names of every field of `_G`, in Lua's iteration order (non-string keys as `(type key)`). */
  globalNames(): string[];
  /**
   * Runs one block in a new Lua thread and resolves with its outcome; never rejects for a Lua
   * error (only for misuse, such as a closed VM or a NUL in the chunk name). A host function
   * that returns a Promise suspends the block until it settles, while other blocks and VMs keep
   * running. Errors carry `luaL_traceback` taken at the raise point.
   */
  runBlock(chunk: BlockChunk): Promise<BlockOutcome>;
  /**
   * Runs Engine Lua code synchronously on the main thread with the private table (`rawget`,
   * `rawset`, `rawequal`, `rawlen`, `coroutine`, the original base functions, `string_rep`) as
   * its first argument and `chunk.args` after it. Not for prompt code; cannot suspend; failures
   * carry no traceback. Throws if Lua is already running on this VM.
   */
  runPrivileged(chunk: BlockChunk): BlockOutcome;
  /**
   * Cancels the VM: a running block stops at its next hook call (when the hook is armed), a block
   * waiting on a host Promise ends at once with reason `cancelled`, and no new block starts.
   * Sticky. Safe to call at any time, also from inside a host function.
   */
  cancel(): void;
  /**
   * Closes the VM and frees its whole Lua heap. Blocks waiting on host Promises end as
   * `cancelled`. Idempotent. Throws if called from inside a host function of this VM (Lua is
   * running on it): close after the block's Promise settles.
   */
  close(): void;
}

/** The LuaVm implementation over a VmState (see LuaVm for each member). */
export class VmHandle implements LuaVm {
  private readonly state: VmState;

  /** Opens a new state on `kernel` (LuaVmFactory.create is the public way). */
  constructor(kernel: LuaKernel, options: LuaVmOptions = {}) {
    this.state = openVmState(kernel, options, this);
  }

  /**
   * The VmState behind `vm`. Package-internal: for the area installers (src/<area>/) that need
   * raw stack access, such as C functions with stock Lua argument errors. Throws a TypeError for
   * a LuaVm this package did not make.
   */
  static stateOf(vm: LuaVm): VmState {
    if (!(vm instanceof VmHandle)) throw new TypeError("not a LuaVm made by loadLuaVmFactory");
    return vm.state;
  }

  get closed(): boolean {
    return this.state.closed;
  }

  get cancelled(): boolean {
    return this.state.cancelled;
  }

  get memoryUsed(): number {
    return this.state.closed ? 0 : this.state.account.used;
  }

  get memoryLimit(): number {
    return this.state.limitBytes;
  }

  get hookCalls(): number {
    return this.state.cancelWatch.hookCalls;
  }

  setGlobal(name: string, value: LuaValue): void {
    this.setGlobals({ [name]: value });
  }

  setGlobals(globals: LuaRecord): void {
    const { state } = this;
    const { kernel, L } = state;
    state.hostOp(() => {
      pushGlobals(state);
      for (const name of Object.keys(globals)) {
        kernel.pushText(L, name);
        pushValue(state, L, globals[name], name);
        kernel.x.lua_rawset(L, -3);
      }
      kernel.x.lua_settop(L, -2);
    });
  }

  setGlobalFunction(name: string, fn: HostFunction): void {
    this.setGlobal(name, fn);
  }

  setTableFunction(tableName: string, field: string, fn: HostFunction): void {
    const { state } = this;
    const { kernel, L } = state;
    const { x } = kernel;
    state.hostOp(() => {
      pushGlobals(state); // [G]
      kernel.pushText(L, tableName);
      x.lua_rawget(L, -2); // [G, t]
      const type = typeNameOf(kernel, L, -1);
      if (type === "nil") {
        x.lua_settop(L, -2);
        x.lua_createtable(L, 0, 4);
        kernel.pushText(L, tableName);
        x.lua_pushvalue(L, -2);
        x.lua_rawset(L, -4); // G[tableName] = t
      } else if (type !== "table") {
        throw new TypeError(`global '${tableName}' is a ${type}, not a table`);
      }
      kernel.pushText(L, field);
      pushValue(state, L, fn, `${tableName}.${field}`);
      x.lua_rawset(L, -3);
      x.lua_settop(L, -3);
    });
  }

  getGlobal(name: string): LuaValue {
    const { state } = this;
    const { kernel, L } = state;
    return state.hostOp(() => {
      pushGlobals(state);
      kernel.pushText(L, name);
      kernel.x.lua_rawget(L, -2);
      try {
        return readValue(kernel, L, -1, { budget: readBudgetOf(state) });
      } finally {
        kernel.x.lua_settop(L, -3);
      }
    });
  }

  globalNames(): string[] {
    const { state } = this;
    const { kernel, L } = state;
    const { x } = kernel;
    return state.hostOp(() => {
      pushGlobals(state);
      const names: string[] = [];
      x.lua_pushnil(L);
      while (x.lua_next(L, -2) !== 0) {
        names.push(
          typeNameOf(kernel, L, -2) === "string"
            ? kernel.readText(L, -2)
            : `(${typeNameOf(kernel, L, -2)} key)`,
        );
        x.lua_settop(L, -2);
      }
      x.lua_settop(L, -2);
      return names;
    });
  }

  runBlock(chunk: BlockChunk): Promise<BlockOutcome> {
    return runBlock(this.state, chunk);
  }

  runPrivileged(chunk: BlockChunk): BlockOutcome {
    return runPrivileged(this.state, chunk);
  }

  cancel(): void {
    if (!this.state.closed) this.state.markCancelled();
  }

  close(): void {
    closeVmState(this.state);
  }
}
