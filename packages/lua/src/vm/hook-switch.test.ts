import { describe, expect, it } from "vitest";
import { WATCHDOG_START_HOOK_CALLS } from "./hook-control";
import { VmHandle } from "./lua-vm";
import { run, withVm } from "./test-support";

// This file's module graph (and so its wasm module and kernel) is its own: no test here or
// before it started the cancel watchdog.

describe("a watchable VM made before the watchdog runs", () => {
  it("keeps its hook and starts no thread while its Lua stays short", async () => {
    await withVm(
      async (vm) => {
        const state = VmHandle.stateOf(vm);
        expect(state.hooks.mode).toBe("hook");
        await run(vm, "local n = 0 for i = 1, 100000 do n = n + i end return n");
        expect(vm.hookCalls).toBeGreaterThan(0);
        expect(vm.hookCalls).toBeLessThan(WATCHDOG_START_HOOK_CALLS);
        expect(state.kernel.watchdog?.requested).toBe(false);
      },
      { cancelFlag: new Int32Array(new SharedArrayBuffer(8)) },
    );
  });

  it("starts the watchdog once it has run long, and then drops its hook", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    await withVm(
      async (vm) => {
        const state = VmHandle.stateOf(vm);
        const dog = state.kernel.watchdog;
        expect(state.hooks.mode).toBe("hook");
        const loop = "local n = 0 for i = 1, 4000000 do n = n + 1 end return n";
        await run(vm, loop);
        expect(vm.hookCalls).toBeGreaterThanOrEqual(WATCHDOG_START_HOOK_CALLS);
        expect(dog?.requested).toBe(true);
        for (let i = 0; i < 1000 && dog?.ready !== true; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(dog?.ready).toBe(true);
        // The next hook call switches the VM to hook-free; the rest of the loop runs unhooked.
        const before = vm.hookCalls;
        await expect(run(vm, loop)).resolves.toMatchObject({ ok: true, values: [4000000] });
        expect(state.hooks.mode).toBe("watched");
        expect(vm.hookCalls - before).toBeLessThanOrEqual(2);
        // And the flag still stops it.
        Atomics.store(flag, 0, 1);
        await expect(run(vm, "while true do end")).resolves.toMatchObject({
          ok: false,
          reason: "cancelled",
        });
      },
      { cancelFlag: flag },
    );
  });
});
