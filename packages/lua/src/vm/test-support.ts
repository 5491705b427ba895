import { loadLuaVmFactory } from "./factory";
import type { LuaVm, LuaVmOptions } from "./lua-vm";
import type { BlockOutcome } from "./outcome";
import type { LuaValue } from "./values";

/** Runs Lua source as a block named `line 1` (tests only). */
export function run(vm: LuaVm, source: string, args?: readonly LuaValue[]): Promise<BlockOutcome> {
  return vm.runBlock(
    args === undefined ? { source, chunkName: "line 1" } : { source, chunkName: "line 1", args },
  );
}

/** Runs a block that must succeed and returns its values (tests only). */
export async function values(vm: LuaVm, source: string): Promise<LuaValue[]> {
  const outcome = await run(vm, source);
  if (!outcome.ok) throw new Error(`block failed (${outcome.reason}): ${outcome.message}`);
  return outcome.values;
}

/** Creates a VM and closes it after `use` settles (tests only). */
export async function withVm<T>(
  use: (vm: LuaVm) => Promise<T> | T,
  options?: LuaVmOptions,
): Promise<T> {
  const factory = await loadLuaVmFactory();
  const vm = factory.create(options);
  try {
    return await use(vm);
  } finally {
    vm.close();
  }
}
