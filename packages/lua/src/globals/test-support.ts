import { loadLuaVmFactory } from "../vm/factory";
import { type LuaVm, type LuaVmOptions, VmHandle } from "../vm/lua-vm";
import { pushValue } from "../vm/marshal";
import type { BlockOutcome } from "../vm/outcome";
import { pushGlobals } from "../vm/sandbox";
import type { HostFunction, LuaRecord, LuaValue } from "../vm/values";
import { type GlobalGuard, type GlobalGuardOptions, installGlobalGuard } from "./install";

/** Creates a VM with the guard installed and closes it after `use` settles (tests only). */
export async function withGuardedVm<T>(
  use: (vm: LuaVm, guard: GlobalGuard) => Promise<T> | T,
  options?: GlobalGuardOptions,
  vmOptions?: LuaVmOptions,
): Promise<T> {
  const factory = await loadLuaVmFactory();
  const vm = factory.create(vmOptions);
  try {
    return await use(vm, installGlobalGuard(vm, options));
  } finally {
    vm.close();
  }
}

/** Runs `source` as a block whose Lua starts on prompt line `firstLine` (tests only). */
export function runAt(vm: LuaVm, source: string, firstLine = 1): Promise<BlockOutcome> {
  return vm.runBlock({ source, chunkName: `line ${firstLine}` });
}

/** Runs a block that must succeed and returns its values (tests only). */
export async function valuesAt(vm: LuaVm, source: string, firstLine = 1): Promise<LuaValue[]> {
  const outcome = await runAt(vm, source, firstLine);
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values;
}

/** The first value of a block that must succeed: a run result (tests only). */
export async function resultOf(vm: LuaVm, source: string, firstLine = 1): Promise<LuaValue> {
  return (await valuesAt(vm, source, firstLine))[0];
}

/** The error message of a block that must fail (tests only). */
export async function failureOf(vm: LuaVm, source: string, firstLine = 1): Promise<string> {
  const outcome = await runAt(vm, source, firstLine);
  if (outcome.ok) throw new Error(`block succeeded: ${JSON.stringify(outcome.values)}`);
  return outcome.message;
}

/** Runs Engine Lua with the private table as `...` and fails the test if it fails. */
export function privileged(vm: LuaVm, source: string, args?: readonly LuaValue[]): LuaValue[] {
  const outcome = vm.runPrivileged(
    args === undefined
      ? { source, chunkName: "=stand-in" }
      : { source, chunkName: "=stand-in", args },
  );
  if (!outcome.ok) throw new Error(`privileged code failed: ${outcome.message}`);
  return outcome.values;
}

/**
 * A stand-in for Runvil's require: `require '## name'` runs `libraries[name]` as a block of the
 * same VM (its globals and any `_G` metatable stay), suspending the caller meanwhile; any other
 * reference fails and loads nothing, as a stock library name such as 'os' does.
 */
export function standInRequire(libraries: Readonly<Record<string, string>>): HostFunction {
  return async (call) => {
    const reference = call.text(1) ?? "";
    const source = reference.startsWith("## ") ? libraries[reference.slice(3)] : undefined;
    if (source === undefined) throw new Error(`require: no section ${reference}`);
    const outcome = await call.vm.runBlock({ source, chunkName: "line 100" });
    if (!outcome.ok) throw new Error(outcome.message);
  };
}

/**
 * Sets global `name` to a full userdata whose metatable has `__tostring` (answering `text`) and
 * `__metatable = 'locked'`, like an Engine handle (tests only).
 */
export function setUserdataGlobal(vm: LuaVm, name: string, text: string): void {
  const state = VmHandle.stateOf(vm);
  const { kernel, L } = state;
  const { x } = kernel;
  state.hostOp(() => {
    x.lua_newuserdatauv(L, 0, 0); // [u]
    x.lua_createtable(L, 0, 2); // [u, mt]
    kernel.pushText(L, "__tostring");
    pushValue(state, L, () => [text], `${name}.__tostring`);
    x.lua_rawset(L, -3);
    kernel.pushText(L, "__metatable");
    kernel.pushText(L, "locked");
    x.lua_rawset(L, -3);
    x.lua_setmetatable(L, -2); // [u]
    pushGlobals(state); // [u, G]
    kernel.pushText(L, name);
    x.lua_pushvalue(L, -3);
    x.lua_rawset(L, -3);
    x.lua_settop(L, -3);
  });
}

/**
 * Stand-ins for the 18 raw Engine globals (everything but the three the guard serves, `ui` and
 * `item` included), each a non-nil value of a plausible type (tests only).
 */
export function standInEngineGlobals(): LuaRecord {
  const noop: HostFunction = () => undefined;
  return {
    args: "hi",
    sys: {},
    var: {},
    log: noop,
    store: { read: noop, write: noop },
    untrusted: noop,
    json: { encode: noop, decode: noop },
    models: { infer: noop },
    tools: { offer: noop, get: noop },
    compactors: {},
    call: noop,
    jump: noop,
    prompt: { section: noop, list: noop },
    require: noop,
    tasks: { spawn: noop },
    packs: {},
    ui: noop,
    item: "arm",
  };
}
