import { runtimeError } from "../errors/runtime-error";
import { isReservedName } from "../globals/reserved-names";
import type { LuaState } from "../module";
import { LuaTypeTag } from "../raw-api";
import type { HostCall } from "../vm/host-call";
import type { RawCFunction } from "../vm/host-functions";
import type { LuaKernel } from "../vm/kernel";
import type { HostFunction } from "../vm/values";
import {
  preludeCollisionMessage,
  preludeKeyTypeMessage,
  preludeNameNotUtf8Message,
  preludeReadOnlyMessage,
  preludeReservedNameMessage,
  preludeVarReadOnlyMessage,
} from "./messages";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * How a refusal names key `index` of `call`: a string key as is, an integer key (or a float
 * with an integral value, the same key to Lua) as its digits, anything else as its Lua type.
 */
export function preludeKeyText(call: HostCall, index: number): string {
  const type = call.type(index);
  if (type === "string") return call.text(index) ?? "";
  if (type === "number") {
    const integer = call.integer(index);
    return integer === null ? "number" : String(integer);
  }
  return type;
}

/** `refuse_sealed(global, pack, key)`: the read-only refusal of a sealed prelude table. */
export const refuseSealedWrite: HostFunction = (call) => {
  throw runtimeError(
    preludeReadOnlyMessage(call.text(1) ?? "", call.text(2) ?? "", preludeKeyText(call, 3)),
  );
};

/** `refuse_var(path, key)`: the refusal of a write into var from prelude code. */
export const refuseVarWrite: HostFunction = (call) => {
  throw runtimeError(preludeVarReadOnlyMessage(call.text(1) ?? "var", preludeKeyText(call, 2)));
};

/**
 * `check(pack, key)` for one VM's install: returns the refusal of the prelude global `key`, or
 * nothing after recording `pack` as the name's owner. A key must be a UTF-8 string, not a
 * reserved name, and not a global an earlier prelude of the VM defines.
 */
export function createGlobalCheck(): HostFunction {
  const owners = new Map<string, string>();
  return (call) => {
    const pack = call.text(1) ?? "";
    const type = call.type(2);
    if (type !== "string") {
      const shown = type === "number" && call.integer(2) !== null ? "integer" : type;
      return [preludeKeyTypeMessage(pack, shown)];
    }
    let name: string;
    try {
      name = strictUtf8.decode(call.bytes(2) ?? new Uint8Array());
    } catch {
      return [preludeNameNotUtf8Message(pack)];
    }
    if (isReservedName(name)) return [preludeReservedNameMessage(pack, name) ?? ""];
    const owner = owners.get(name);
    if (owner !== undefined) return [preludeCollisionMessage(pack, name, owner)];
    owners.set(name, pack);
    return [];
  };
}

const tracebacks = new WeakMap<LuaKernel, RawCFunction>();

/**
 * `traceback(thread)`: `luaL_traceback` of a coroutine from its level 0 (for a coroutine that
 * died with an error, the stack where the error was raised), or `''` for anything else.
 */
export function tracebackFunction(kernel: LuaKernel): RawCFunction {
  let fn = tracebacks.get(kernel);
  if (fn === undefined) {
    const { x } = kernel;
    fn = (L: LuaState): number => {
      if (x.lua_type(L, 1) !== LuaTypeTag.THREAD) {
        kernel.pushText(L, "");
        return 1;
      }
      // lua_topointer of a thread is its lua_State.
      x.luaL_traceback(L, x.lua_topointer(L, 1), 0, 0);
      return 1;
    };
    tracebacks.set(kernel, fn);
  }
  return fn;
}
