import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import { readBudgetOf } from "./chunk";
import type { LuaVm } from "./lua-vm";
import { readValue, toSafeNumber, typeNameOf } from "./marshal";
import type { LuaTypeName, LuaValue } from "./values";
import type { VmState } from "./vm-state";

/**
 * A host function's view of one call: its arguments (1-based, as in Lua) and where it runs.
 * Valid only until the host function returns or its Promise is created: reading an argument
 * afterwards throws, because the Lua stack has moved on.
 */
export interface HostCall {
  /** The VM the call runs in. */
  readonly vm: LuaVm;
  /** The host function's name as installed (`store.read` for a function inside a table). */
  readonly name: string;
  /** Number of arguments passed. */
  readonly argCount: number;
  /**
   * Whether the call may suspend: it runs in a block started by runBlock and no C function
   * (such as table.sort's comparator caller) stands between it and the block. Returning a
   * Promise where this is false raises `attempt to yield across a C-call boundary`.
   */
  readonly canSuspend: boolean;
  /** The Lua type of argument `index` (`nil` past the last argument). */
  type(index: number): LuaTypeName;
  /** Argument `index` read into JavaScript (see LuaValue). */
  value(index: number): LuaValue;
  /** All arguments read into JavaScript. */
  values(): LuaValue[];
  /** Argument `index` as text when it is a string or a number (as Lua converts it), else null. */
  text(index: number): string | null;
  /** Argument `index` as bytes when it is a string or a number, else null. */
  bytes(index: number): Uint8Array | null;
  /**
   * Argument `index` as an integer when Lua can convert it exactly (`lua_tointegerx`: integers,
   * integral floats, numeric strings), else null. A number when safe, else a bigint.
   */
  integer(index: number): number | bigint | null;
  /** Argument `index` as a float when Lua can convert it (`lua_tonumberx`), else null. */
  number(index: number): number | null;
  /** Argument `index` by Lua truthiness (nil and false are false). */
  boolean(index: number): boolean;
}

/** The HostCall handed to one host-function invocation. */
export class ActiveHostCall implements HostCall {
  readonly name: string;
  private readonly state: VmState;
  private readonly L: LuaState;
  private active = true;
  private count = -1;

  constructor(state: VmState, L: LuaState, name: string) {
    this.state = state;
    this.L = L;
    this.name = name;
  }

  get argCount(): number {
    if (this.count < 0) {
      this.check(1);
      this.count = this.state.kernel.x.lua_gettop(this.L);
    }
    return this.count;
  }

  get vm(): LuaVm {
    return this.state.facade;
  }

  get canSuspend(): boolean {
    this.check(1);
    return this.state.threads.has(this.L) && this.state.kernel.x.lua_isyieldable(this.L) !== 0;
  }

  /** Called by the dispatcher when the host function returns or suspends. */
  end(): void {
    this.active = false;
  }

  type(index: number): LuaTypeName {
    this.check(index);
    if (index > this.argCount) return "nil";
    return typeNameOf(this.state.kernel, this.L, index);
  }

  value(index: number): LuaValue {
    this.check(index);
    if (index > this.argCount) return null;
    return readValue(this.state.kernel, this.L, index, { budget: readBudgetOf(this.state) });
  }

  values(): LuaValue[] {
    this.check(1);
    const out: LuaValue[] = [];
    const budget = readBudgetOf(this.state); // the arguments share one budget
    for (let i = 1; i <= this.argCount; i++) {
      out.push(readValue(this.state.kernel, this.L, i, { budget }));
    }
    return out;
  }

  text(index: number): string | null {
    return this.withString(index, (idx) => this.state.kernel.readText(this.L, idx));
  }

  bytes(index: number): Uint8Array | null {
    return this.withString(index, (idx) => this.state.kernel.readBytes(this.L, idx));
  }

  integer(index: number): number | bigint | null {
    this.check(index);
    if (index > this.argCount) return null;
    const { x, intCell, heap } = this.state.kernel;
    const value = x.lua_tointegerx(this.L, index, intCell);
    if ((heap.i32()[intCell >> 2] ?? 0) === 0) return null;
    return toSafeNumber(value);
  }

  number(index: number): number | null {
    this.check(index);
    if (index > this.argCount) return null;
    const { x, intCell, heap } = this.state.kernel;
    const value = x.lua_tonumberx(this.L, index, intCell);
    return (heap.i32()[intCell >> 2] ?? 0) === 0 ? null : value;
  }

  boolean(index: number): boolean {
    this.check(index);
    if (index > this.argCount) return false;
    return this.state.kernel.x.lua_toboolean(this.L, index) !== 0;
  }

  /** Runs `read` on a string copy of argument `index` (numbers are converted on the copy). */
  private withString<T>(index: number, read: (idx: number) => T): T | null {
    this.check(index);
    if (index > this.argCount) return null;
    const { x } = this.state.kernel;
    const type = x.lua_type(this.L, index);
    if (type === LuaTypeTag.STRING) return read(index);
    if (type !== LuaTypeTag.NUMBER) return null;
    x.lua_pushvalue(this.L, index);
    try {
      return read(-1);
    } finally {
      x.lua_settop(this.L, -2);
    }
  }

  private check(index: number): void {
    if (!this.active) {
      throw new Error(
        `the arguments of host function '${this.name}' can only be read before it returns`,
      );
    }
    if (!Number.isInteger(index) || index < 1) {
      throw new RangeError(`argument index must be an integer >= 1, got ${index}`);
    }
  }
}
