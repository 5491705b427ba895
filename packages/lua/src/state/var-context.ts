import { jsonEncodeLimits } from "../json/limits";
import { formatJsonPathStep, type JsonPathStep } from "../json/path";
import type { LuaState } from "../module";
import { upvalueIndex } from "../vm/constants";
import type { LuaKernel } from "../vm/kernel";
import type { VmState } from "../vm/vm-state";
import type { LuaExports } from "../wasm-exports";
import { VAR_METATABLE_TEXT } from "./messages";
import { pushName, pushRawClosure } from "./raw-lua";

/**
 * The slots of a VM's var kit: a small Lua table every guard closure holds as an upvalue, with
 * what views and writes need besides their own storage.
 */
export const KIT_TARGETS = 1n;
/** Kit slot: json's list marker (the metatable of a marked list). */
export const KIT_MARKER = 2n;
/** Kit slot: json.null. */
export const KIT_NULL = 3n;
/** Kit slot: the views' shared `__pairs` closure. */
export const KIT_PAIRS = 4n;

/**
 * The private table's field holding `{ view = <var's root view>, kit = <the kit> }`: what a
 * read-only view of var (a Pack prelude's) or another reader of var can start from.
 */
export const VAR_PRIVATE_FIELD = "state_var";

/**
 * Upvalues of a guard closure (the `__newindex` of one view): 2 its storage table, 3 its full
 * path (a string such as `var.list[2]`), 4 its level (var is 1, as a float), 5 the kit.
 */
export const GUARD_STORAGE = upvalueIndex(2);
/** Guard upvalue: the view's path. */
export const GUARD_PATH = upvalueIndex(3);
/** Guard upvalue: the view's level. */
export const GUARD_LEVEL = upvalueIndex(4);
/** Guard upvalue: the kit. */
export const GUARD_KIT = upvalueIndex(5);

/** One VM's var: what its guard closures and conversions share. */
export class VarContext {
  readonly state: VmState;
  readonly kernel: LuaKernel;
  readonly x: LuaExports;
  /** Values one table write may visit (json.encode's budget: memory / 8). */
  readonly maxValues: number;
  /** String bytes one table write may visit (the memory limit). */
  readonly maxBytes: number;
  /** The guard's entry in the VM's function table (set once the guard is made). */
  guardIndex = -1;

  constructor(state: VmState) {
    this.state = state;
    this.kernel = state.kernel;
    this.x = state.kernel.x;
    const limits = jsonEncodeLimits(state.limitBytes);
    this.maxValues = limits.maxValues;
    this.maxBytes = limits.maxStringBytes;
  }

  /**
   * Pushes a new view of the storage table at `storage` (an absolute or upvalue index), named
   * `path` at `level`, registered in `sealed_targets`. `kit` is the kit's index.
   */
  pushView(L: LuaState, storage: number, path: string, level: number, kit: number): void {
    const { kernel, x } = this;
    x.lua_createtable(L, 0, 0); // the view
    const view = x.lua_gettop(L);
    x.lua_createtable(L, 0, 4);
    const mt = view + 1;
    pushName(kernel, L, "__index");
    x.lua_pushvalue(L, storage);
    x.lua_rawset(L, mt);
    pushName(kernel, L, "__newindex");
    x.lua_pushvalue(L, storage);
    kernel.pushText(L, path);
    x.lua_pushnumber(L, level);
    x.lua_pushvalue(L, kit);
    pushRawClosure(kernel, L, this.guardIndex, 4);
    x.lua_rawset(L, mt);
    pushName(kernel, L, "__metatable");
    pushName(kernel, L, VAR_METATABLE_TEXT);
    x.lua_rawset(L, mt);
    pushName(kernel, L, "__pairs");
    x.lua_rawgeti(L, kit, KIT_PAIRS);
    x.lua_rawset(L, mt);
    x.lua_setmetatable(L, view);
    x.lua_rawgeti(L, kit, KIT_TARGETS);
    x.lua_pushvalue(L, view);
    x.lua_pushvalue(L, storage);
    x.lua_rawset(L, mt); // sealed_targets[view] = storage (the targets table sits where mt was)
    x.lua_settop(L, view);
  }

  /** Whether the table at `idx` carries json's list marker (the kit at `kit`). */
  isMarked(L: LuaState, idx: number, kit: number): boolean {
    if (this.x.lua_getmetatable(L, idx) === 0) return false;
    const marked = this.isMarkerAt(L, this.x.lua_gettop(L), kit);
    this.x.lua_settop(L, -2);
    return marked;
  }

  /** Whether the value at `idx` is json's list marker. */
  isMarkerAt(L: LuaState, idx: number, kit: number): boolean {
    this.x.lua_rawgeti(L, kit, KIT_MARKER);
    const marker = this.x.lua_rawequal(L, idx, -1) !== 0;
    this.x.lua_settop(L, -2);
    return marker;
  }

  /** Sets json's list marker as the metatable of the table at `idx`. */
  mark(L: LuaState, idx: number, kit: number): void {
    this.x.lua_rawgeti(L, kit, KIT_MARKER);
    this.x.lua_setmetatable(L, idx);
  }
}

/** A path and one more step: `var.t` and `f` give `var.t.f`, `var.list` and 2 `var.list[2]`. */
export function childPath(path: string, step: JsonPathStep): string {
  return path + formatJsonPathStep(step);
}
