import { loadLuaVmFactory } from "../vm/factory";
import type { LuaVm, LuaVmOptions } from "../vm/lua-vm";
import type { LuaValue } from "../vm/values";

/** Runs `source` as a block named `line 1` and returns its first value, or throws its failure. */
export async function runValue(vm: LuaVm, source: string): Promise<LuaValue> {
  const outcome = await vm.runBlock({ source, chunkName: "line 1" });
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values[0];
}

/** Runs `source` as a block that must fail and returns its error message. */
export async function runFailure(vm: LuaVm, source: string): Promise<string> {
  const outcome = await vm.runBlock({ source, chunkName: "line 1" });
  if (outcome.ok) throw new Error(`block succeeded with ${String(outcome.values[0])}`);
  return outcome.message;
}

/** A fresh VM set up by `install`, closed after `use` settles. */
export async function withStateVm<T>(
  install: (vm: LuaVm) => void,
  use: (vm: LuaVm) => Promise<T>,
  options?: LuaVmOptions,
): Promise<T> {
  const factory = await loadLuaVmFactory();
  const vm = factory.create(options);
  try {
    install(vm);
    return await use(vm);
  } finally {
    vm.close();
  }
}
