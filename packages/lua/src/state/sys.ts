import { runtimeError } from "../errors/runtime-error";
import { ensurePrivateValuesAt, SEALED_TARGETS_FIELD } from "../json-lua/private-values";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import { UPVALUE_2 } from "../vm/constants";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaKernel } from "../vm/kernel";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import { pushGlobals, pushPrivate } from "../vm/sandbox";
import {
  SYS_METATABLE_TEXT,
  SYS_STRING_KEY_MESSAGE,
  sysReadOnlyMessage,
  unknownSysFieldMessage,
} from "./messages";
import { addRawFunction, getRawField, pushName, pushRawClosure, setRawField } from "./raw-lua";
import { pushEmptyPairs } from "./sealed-views";
import { formatSysWhen } from "./sys-when";

/** The run facts the Engine supplies for one section entry ("Run facts in sys and ui"). */
export interface SysFacts {
  /** `sys.section_name`: the section whose Lua runs; the prompt's title in the H1 pass. */
  readonly sectionName: string;
  /** `sys.section_count`: the prompt's top-level section count (an integer ≥ 0). */
  readonly sectionCount: number;
  /** `sys.execution`: the run's name, which the Harness assigns. */
  readonly execution: string;
  /** `sys.when`: the run's start instant (ms since the epoch, or a Date), written by formatSysWhen. */
  readonly when: number | Date;
  /** `sys.id`: the section entry id, such as `0.1`. */
  readonly id: string;
  /** `sys.taskid`: the nearest enclosing task's id, `0` on the main walk. */
  readonly taskId: string;
  /** `sys.model`, when the section's model is already bound (see SysHandle.setModel). */
  readonly model?: string;
  /** `sys.index`: a task's first section entry, when its spawn supplied one (an integer). */
  readonly index?: number;
}

/** What installSys returns: the facts that can still change during the section. */
export interface SysHandle {
  /**
   * Makes `sys.model` readable from now on, as the bound model's catalog id. The Engine calls it
   * at the section's first tool call when the section has a model; later calls are ignored
   * (the field stays fixed for the rest of the section). Safe to call while a block runs.
   */
  setModel(catalogId: string): void;
  /** The catalog id sys.model reads, or undefined while it is absent. */
  readonly model: string | undefined;
}

/** The private table's field holding sys's facts table, for SysHandle.setModel. */
const SYS_FACTS_FIELD = "state_sys_facts";

/** sys's raw functions, one pair per kernel (every VM's sys shares them). */
interface SysFunctions {
  /** `__index(sys, key)`: the fact in upvalue 2's table, or the refusal. */
  readonly index: RawCFunction;
  /** `__newindex(sys, key, value)`: always the refusal. */
  readonly deny: RawCFunction;
}

const functionsByKernel = new WeakMap<LuaKernel, SysFunctions>();

function sysFunctions(kernel: LuaKernel): SysFunctions {
  let fns = functionsByKernel.get(kernel);
  if (fns === undefined) {
    const { x } = kernel;
    const stringKey = (L: LuaState): string => {
      if (x.lua_type(L, 2) !== LuaTypeTag.STRING) throw runtimeError(SYS_STRING_KEY_MESSAGE);
      return kernel.readText(L, 2);
    };
    fns = {
      index: (L: LuaState): number => {
        x.lua_pushvalue(L, 2);
        if (x.lua_rawget(L, UPVALUE_2) !== LuaTypeTag.NIL) return 1;
        throw runtimeError(unknownSysFieldMessage(stringKey(L)));
      },
      deny: (L: LuaState): number => {
        throw runtimeError(sysReadOnlyMessage(stringKey(L)));
      },
    };
    functionsByKernel.set(kernel, fns);
  }
  return fns;
}

function checkFacts(facts: SysFacts): void {
  if (!Number.isSafeInteger(facts.sectionCount) || facts.sectionCount < 0) {
    throw new RangeError(`sys.section_count must be a whole number, got ${facts.sectionCount}`);
  }
  if (facts.index !== undefined && !Number.isSafeInteger(facts.index)) {
    throw new RangeError(`sys.index must be an integer, got ${facts.index}`);
  }
}

/** The last start instant written, and its text: a run's sections share one instant. */
let lastWhen: { readonly ms: number; readonly text: string } | undefined;

function whenText(instant: number | Date): string {
  const ms = typeof instant === "number" ? instant : instant.getTime();
  if (lastWhen?.ms !== ms) lastWhen = { ms, text: formatSysWhen(ms) };
  return lastWhen.text;
}

/**
 * Installs the `sys` global in `vm`: a sealed, read-only view of `facts`. A present field reads
 * as a plain Lua value (section_count and index as integers, the others as strings); reading a
 * field sys does not have raises `runtime error: unknown sys field '{name}'`, a key that is not
 * a string `runtime error: sys fields must be accessed by string key`, and any assignment
 * `runtime error: sys is read-only; cannot set '{field}'` (kind `lua` error values through the
 * errors area). `pairs`/`next` see nothing, getmetatable reads `sys is sealed`, and json.encode
 * finds it unreadable (its `__index` is a function). Throws a RangeError for facts it cannot
 * show.
 *
 * The facts live in a Lua table that only the view's `__index` C closure (an upvalue) and the
 * private table hold.
 */
export function installSys(vm: LuaVm, facts: SysFacts): SysHandle {
  checkFacts(facts);
  const when = whenText(facts.when);
  const state = VmHandle.stateOf(vm);
  const { kernel } = state;
  const { x } = kernel;
  const fns = sysFunctions(kernel);
  state.hostOp(() => {
    const { L } = state;
    pushPrivate(state, L);
    const P = x.lua_gettop(L);
    ensurePrivateValuesAt(state, L, P);
    x.lua_createtable(L, 0, 0); // P + 1: the view
    x.lua_createtable(L, 0, 4); // P + 2: its metatable
    x.lua_createtable(L, 0, 8); // P + 3: the facts
    const text = (name: string, value: string): void => {
      pushName(kernel, L, name);
      kernel.pushText(L, value);
      x.lua_rawset(L, P + 3);
    };
    const integer = (name: string, value: number): void => {
      pushName(kernel, L, name);
      x.lua_pushinteger(L, BigInt(value));
      x.lua_rawset(L, P + 3);
    };
    text("section_name", facts.sectionName);
    integer("section_count", facts.sectionCount);
    text("execution", facts.execution);
    text("when", when);
    text("id", facts.id);
    text("taskid", facts.taskId);
    if (facts.model !== undefined) text("model", facts.model);
    if (facts.index !== undefined) integer("index", facts.index);
    x.lua_pushvalue(L, P + 3);
    setRawField(kernel, L, P, SYS_FACTS_FIELD);
    pushName(kernel, L, "__index");
    x.lua_rotate(L, P + 3, 1); // the facts become the closure's upvalue
    pushRawClosure(kernel, L, addRawFunction(state, "sys", fns.index), 1);
    x.lua_rawset(L, P + 2);
    pushName(kernel, L, "__newindex");
    pushRawClosure(kernel, L, addRawFunction(state, "sys", fns.deny), 0);
    x.lua_rawset(L, P + 2);
    pushName(kernel, L, "__metatable");
    pushName(kernel, L, SYS_METATABLE_TEXT);
    x.lua_rawset(L, P + 2);
    pushName(kernel, L, "__pairs");
    pushEmptyPairs(state, L);
    x.lua_rawset(L, P + 2);
    x.lua_setmetatable(L, P + 1);
    getRawField(kernel, L, P, SEALED_TARGETS_FIELD); // P + 2
    x.lua_pushvalue(L, P + 1);
    x.lua_pushboolean(L, 0);
    x.lua_rawset(L, P + 2);
    pushGlobals(state, L); // P + 3
    x.lua_pushvalue(L, P + 1);
    setRawField(kernel, L, P + 3, "sys");
    x.lua_settop(L, P - 1);
  });
  let model = facts.model;
  return {
    setModel(catalogId: string): void {
      if (model !== undefined) return;
      model = catalogId;
      state.hostOp(() => {
        const { L } = state;
        pushPrivate(state, L);
        getRawField(kernel, L, x.lua_gettop(L), SYS_FACTS_FIELD);
        kernel.pushText(L, catalogId);
        setRawField(kernel, L, x.lua_gettop(L) - 1, "model");
        x.lua_settop(L, -3);
      });
    },
    get model(): string | undefined {
      return model;
    },
  };
}
