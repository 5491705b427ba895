import { installErrors } from "../errors/install-errors";
import { LuaTypeTag } from "../raw-api";
import { type LuaVm, type LuaVmOptions, VmHandle } from "../vm/lua-vm";
import type { BlockOutcome } from "../vm/outcome";
import { pushGlobals } from "../vm/sandbox";
import { withVm } from "../vm/test-support";
import { installJson } from "./install";

/**
 * Creates a VM with error values (installErrors) and json installed, and closes it after `use`
 * (tests only).
 */
export function withJsonVm<T>(
  use: (vm: LuaVm) => Promise<T> | T,
  options?: LuaVmOptions,
): Promise<T> {
  return withVm((vm) => {
    installErrors(vm);
    installJson(vm);
    return use(vm);
  }, options);
}

/** Runs `source` as a block named `line 1` (tests only). */
export function runLua(vm: LuaVm, source: string): Promise<BlockOutcome> {
  return vm.runBlock({ source, chunkName: "line 1" });
}

/** The first value a block returned; throws with the failure text otherwise (tests only). */
export async function resultOf(vm: LuaVm, source: string): Promise<unknown> {
  const outcome = await runLua(vm, source);
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values[0];
}

/**
 * The text of the error a block raised (`tostring(err)` of what pcall caught), or throws when
 * the block succeeded (tests only).
 */
export async function errorOf(vm: LuaVm, call: string): Promise<string> {
  const value = await resultOf(
    vm,
    `local ok, err = pcall(${call})
if ok then return 'no error' end
return (type(err) == 'table' and err.kind or '?') .. '|' .. tostring(err)`,
  );
  return String(value);
}

/** Runs Engine Lua with the private table as `...`; throws on failure (tests only). */
export function privileged(vm: LuaVm, source: string): void {
  const outcome = vm.runPrivileged({ source, chunkName: "=test stand-in" });
  if (!outcome.ok) throw new Error(outcome.message);
}

/**
 * A stand-in for the var global, built as the sealed-view contract says (tests only): `var` and
 * every table read from it are empty proxies whose metatable has a function `__index` and a
 * string `__metatable` ("var"), each registered in `P.sealed_targets` with the table holding its
 * data. Assigning copies plain tables into data tables, keeping the list marker of marked lists.
 */
export function installVarStandIn(vm: LuaVm): void {
  privileged(
    vm,
    `local P = ...
local targets, marker = P.sealed_targets, P.json_list_marker
local setmetatable, getmetatable, rawget, rawset, type, next =
  P.setmetatable, P.getmetatable, P.rawget, P.rawset, P.type, P.next
local views = {}
local function copy(value)
  if type(value) ~= 'table' then return value end
  local marked = getmetatable(value) == false
  local out = {}
  for k, v in next, value do out[k] = copy(v) end
  if marked then setmetatable(out, marker) end
  return out
end
local function view(data)
  local existing = views[data]
  if existing then return existing end
  local proxy = setmetatable({}, {
    __index = function(_, key)
      local value = rawget(data, key)
      if type(value) == 'table' then return view(value) end
      return value
    end,
    __newindex = function(_, key, value) rawset(data, key, copy(value)) end,
    __metatable = 'var',
  })
  targets[proxy] = data
  views[data] = proxy
  return proxy
end
rawset(P._G, 'var', view({}))`,
  );
}

/**
 * A stand-in for sys (tests only): a sealed view whose `__index` is a function and whose
 * `__metatable` is `sys is sealed`, not registered in `sealed_targets`, so it cannot be read.
 */
export function installSysStandIn(vm: LuaVm): void {
  privileged(
    vm,
    `local P = ...
P.rawset(P._G, 'sys', P.setmetatable({}, {
  __index = function() return nil end,
  __metatable = 'sys is sealed',
}))`,
  );
}

/**
 * A stand-in for the store global over `files` (tests only): write, append and read, the last
 * returning nil for a missing file.
 */
export function installStoreStandIn(vm: LuaVm, files: Map<string, string>): void {
  vm.setGlobals({
    store: {
      write: (call) => {
        files.set(call.text(1) ?? "", call.text(2) ?? "");
      },
      append: (call) => {
        const path = call.text(1) ?? "";
        files.set(path, (files.get(path) ?? "") + (call.text(2) ?? ""));
      },
      read: (call) => [files.get(call.text(1) ?? "") ?? null],
    },
  });
}

/** Sets global `name` to a new full userdata, as the messages list is (tests only). */
export function setUserdataGlobal(vm: LuaVm, name: string): void {
  const state = VmHandle.stateOf(vm);
  state.hostOp(() => {
    const { kernel, L } = state;
    pushGlobals(state, L);
    kernel.pushText(L, name);
    kernel.x.lua_newuserdatauv(L, 8, 0);
    kernel.x.lua_rawset(L, -3);
    if (kernel.x.lua_type(L, -1) !== LuaTypeTag.TABLE) throw new Error("no globals table");
    kernel.x.lua_settop(L, -2);
  });
}
