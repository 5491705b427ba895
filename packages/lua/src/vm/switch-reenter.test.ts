import { describe, expect, it } from "vitest";
import { WATCHDOG_START_HOOK_CALLS } from "./hook-control";
import { VmHandle } from "./lua-vm";
import { run, withVm } from "./test-support";

// This file's module graph (and so its kernel) is its own: the watchdog has not started when
// the test runs, as in a `runvil run` whose first block is long.

describe("a first block that starts hooked and runs long (lua-vm.md, Tier-up)", () => {
  it("re-enters at the switch to hook-free, then on the watchdog's armings in the same resume", async () => {
    await withVm(
      async (vm) => {
        const state = VmHandle.stateOf(vm);
        expect(state.hooks.mode).toBe("hook");
        const start = performance.now();
        vm.setGlobalFunction("until_", () => [
          (state.hooks.mode === "watched" && state.watchedReentries >= 2) ||
            performance.now() - start > 20_000,
        ]);
        const outcome = await run(
          vm,
          `local n = 0
          repeat for i = 1, 20000 do n = n + 1 end until until_()
          return n`,
        );
        expect(outcome).toMatchObject({ ok: true });
        expect(state.hooks.mode).toBe("watched");
        expect(state.reentries).toBeGreaterThanOrEqual(1); // hooked: the switch, every 4M
        expect(state.watchedReentries).toBeGreaterThanOrEqual(2);
        expect(vm.hookCalls).toBeGreaterThanOrEqual(WATCHDOG_START_HOOK_CALLS);
        expect(state.hooks.armed).toBe(false);
      },
      { cancelFlag: new Int32Array(new SharedArrayBuffer(8)) },
    );
  });
});
