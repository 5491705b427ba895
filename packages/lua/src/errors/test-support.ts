import { EngineError } from "../engine-error";
import type { LuaVm, LuaVmOptions } from "../vm/lua-vm";
import type { BlockOutcome } from "../vm/outcome";
import { withVm } from "../vm/test-support";
import { installErrors } from "./install-errors";
import { runtimeError } from "./runtime-error";

/** Creates a VM with error values installed, closes it after `use` (tests only). */
export function withErrorsVm<T>(
  use: (vm: LuaVm) => Promise<T> | T,
  options?: LuaVmOptions,
): Promise<T> {
  return withVm((vm) => {
    installErrors(vm);
    return use(vm);
  }, options);
}

/**
 * Stand-ins for the Engine globals the chapter's examples use (tests only): `sys` whose every
 * field read fails like the sys guard, `store.read` that fails with a store error for a missing
 * file (after suspending), `store.read_now` that fails at once, and `log`, which collects lines.
 */
export function installStandIns(vm: LuaVm, files: Record<string, string> = {}): string[] {
  const logged: string[] = [];
  const missing = (path: string) =>
    new EngineError("store", `${path}: not found`, { reason: "not_found", path });
  vm.setGlobals({
    sys_field: (call) => {
      throw runtimeError(`unknown sys field '${call.text(1) ?? ""}'`);
    },
    store: {
      read: async (call) => {
        const path = call.text(1) ?? "";
        await Promise.resolve();
        const text = files[path];
        if (text === undefined) throw missing(path);
        return [text];
      },
      read_now: (call) => {
        const path = call.text(1) ?? "";
        const text = files[path];
        if (text === undefined) throw missing(path);
        return [text];
      },
    },
    log: (call) => {
      logged.push(`Lua: ${call.text(1) ?? ""}`);
    },
  });
  const outcome = vm.runPrivileged({
    source: `local P = ...
P._G.sys = P.setmetatable({}, { __index = function(_, name) return sys_field(name) end })`,
    chunkName: "=sys stand-in",
  });
  if (!outcome.ok) throw new Error(outcome.message);
  return logged;
}

/** Runs `source` as the block whose Lua starts on prompt line `firstLine` (tests only). */
export function runAt(vm: LuaVm, firstLine: number, source: string): Promise<BlockOutcome> {
  return vm.runBlock({ source, chunkName: `line ${firstLine}` });
}

/** The single value a block returned; throws with the failure text otherwise (tests only). */
export async function resultOf(vm: LuaVm, source: string, firstLine = 12): Promise<unknown> {
  const outcome = await runAt(vm, firstLine, source);
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values[0];
}
