import type { LuaVmFactory } from "../../src/vm/factory";
import { VmHandle } from "../../src/vm/lua-vm";

/**
 * Starts the factory's cancel watchdog and waits until it runs, so the VMs a benchmark makes
 * next are hook-free from their first instruction. Throws when the process has none (no shared
 * memory: run without RUNVIL_LUA_SHARED_MEMORY=0).
 */
export async function watchdogRunning(factory: LuaVmFactory): Promise<void> {
  factory.startCancelWatchdog();
  const vm = factory.create();
  const { kernel } = VmHandle.stateOf(vm);
  vm.close();
  const dog = kernel.watchdog;
  if (dog === undefined) throw new Error(`no cancel watchdog: ${kernel.watchdogUnavailable}`);
  for (let i = 0; i < 1000 && !dog.ready; i++) await new Promise((r) => setTimeout(r, 5));
  if (!dog.ready) throw new Error(`the cancel watchdog did not start: ${dog.failure}`);
}
